// OpenSSL's libcrypto (Debian libssl-dev): SHA-256 for identifiers derived from content, PEM
// parsing, X.509 DER encoding, SHA-1, RS256 signatures for app-only sign-in's client assertion.
// calport does no cryptography of its own.
// SHA256_Init/Update/Final are deprecated in OpenSSL 3 but kept, and cheaper at start-up than the
// EVP interface (Digests/SHA256.swift says why): declared here without the deprecation attribute.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
