// libcrypto (Debian's libssl-dev) for Realm's page encryption: AES-256-CBC and HMAC-SHA224.
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
