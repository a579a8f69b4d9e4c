// libcrypto (Debian's libssl-dev) for Realm's page encryption: AES-256-CBC and HMAC-SHA224.
// The low-level AES and SHA-224 functions (deprecated in OpenSSL 3, still part of its API) set
// up without the EVP fetch that costs a short-lived process milliseconds (PageCipher.swift).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/aes.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
