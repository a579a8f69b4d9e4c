// libcrypto (Debian's libssl-dev) for Realm's page encryption: AES-256-CBC and HMAC-SHA224.
// Deprecated parts of its API (the low-level SHA-224 functions, EVP_CIPHER_meth_*) are used on
// purpose: they set up without the provider fetch that costs a short-lived process milliseconds
// (PageCipher.swift, PageMAC.swift).
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
