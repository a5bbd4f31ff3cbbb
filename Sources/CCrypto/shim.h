// OpenSSL's libcrypto (Debian libssl-dev): SHA-256 for identifiers derived from content, PEM
// parsing, X.509 DER encoding, SHA-1, RS256 signatures for app-only sign-in's client assertion.
// calport does no cryptography of its own.
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
