#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/cms.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/decoder.h>
#include <openssl/ec.h>
#include <openssl/encoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

// OPENSSL_free is a function-like macro (it passes __FILE__/__LINE__): Swift cannot call it.
static inline void COpenSSL_free(void *ptr) { OPENSSL_free(ptr); }

// Macros built from other macros are dropped by the Clang importer ("structure not supported").
static const int COpenSSL_EVP_PKEY_KEYPAIR = EVP_PKEY_KEYPAIR;
static const int COpenSSL_EVP_PKEY_PUBLIC_KEY = EVP_PKEY_PUBLIC_KEY;

// OSSL_PARAM keeps the *pointer* to its key name; Swift string conversions live for one call only,
// so hand out the C literals' static storage.
static inline const char *COpenSSL_PKEY_PARAM_GROUP_NAME(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }
static inline const char *COpenSSL_PKEY_PARAM_PUB_KEY(void) { return OSSL_PKEY_PARAM_PUB_KEY; }
static inline const char *COpenSSL_PKEY_PARAM_PRIV_KEY(void) { return OSSL_PKEY_PARAM_PRIV_KEY; }

// HKDF-SHA256 through EVP_KDF, with the OSSL_PARAM array built here so every pointer's lifetime is
// the call's own. An empty salt or info is left out (RFC 5869: an absent salt is HashLen zero bytes),
// so no zero-length OSSL_PARAM octet string ever reaches the provider. Returns 1 on success.
static inline int COpenSSL_HKDF_SHA256(const void *ikm, size_t ikm_len, const void *salt, size_t salt_len,
                                       const void *info, size_t info_len, void *out, size_t out_len) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *kctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (kctx == NULL) return 0;
    OSSL_PARAM params[5], *p = params;
    *p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len);
    if (salt_len > 0) *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len);
    if (info_len > 0) *p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_len);
    *p = OSSL_PARAM_construct_end();
    int rc = EVP_KDF_derive(kctx, out, out_len, params);
    EVP_KDF_CTX_free(kctx);
    return rc;
}

// Builds a P-256 EVP_PKEY from a raw private scalar (optional: NULL/0 for a public-only key) and a
// 65-byte uncompressed public point. OSSL_PARAM_BLD_push_* only remember their value and key-name
// pointers until OSSL_PARAM_BLD_to_param, so the whole build is done here where every buffer outlives it.
// Returns NULL on failure (the reason is on OpenSSL's error queue).
static inline EVP_PKEY *COpenSSL_P256_fromdata(const unsigned char *priv, size_t priv_len,
                                               const unsigned char *pub, size_t pub_len) {
    EVP_PKEY *pkey = NULL;
    BIGNUM *d = NULL;
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    if (bld == NULL) goto done;
    if (!OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0)) goto done;
    if (priv != NULL) {
        d = BN_secure_new();
        if (d == NULL || BN_bin2bn(priv, (int)priv_len, d) == NULL) goto done;
        if (!OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d)) goto done;
    }
    if (!OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, pub_len)) goto done;
    params = OSSL_PARAM_BLD_to_param(bld);
    if (params == NULL) goto done;
    ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) != 1) goto done;
    if (EVP_PKEY_fromdata(ctx, &pkey, priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1) pkey = NULL;
done:
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    BN_clear_free(d);
    return pkey;
}

// DER structures of an EC key, for the two helpers below.
enum {
    COpenSSL_EC_DER_SEC1 = 0,  // ECPrivateKey (RFC 5915 / SEC1), "type-specific" in OpenSSL's terms
    COpenSSL_EC_DER_PKCS8 = 1, // PrivateKeyInfo (RFC 5208), unencrypted
    COpenSSL_EC_DER_SPKI = 2,  // SubjectPublicKeyInfo (RFC 5480)
};

static inline const char *COpenSSL_EC_DER_structure_name(int structure) {
    switch (structure) {
    case COpenSSL_EC_DER_SEC1: return "type-specific";
    case COpenSSL_EC_DER_PKCS8: return "PrivateKeyInfo";
    case COpenSSL_EC_DER_SPKI: return "SubjectPublicKeyInfo";
    default: return NULL;
    }
}

// Decodes one DER-encoded EC key of the given structure. OSSL_DECODER_CTX keeps the *pointers* to its
// input type / structure strings and to the EVP_PKEY** out-parameter until OSSL_DECODER_from_data, so
// they must be C literals and a C local: done here. *remaining receives the count of unread trailing
// bytes. Returns NULL on failure.
static inline EVP_PKEY *COpenSSL_EC_decode_DER(int structure, const unsigned char *der, size_t der_len,
                                               size_t *remaining) {
    const char *name = COpenSSL_EC_DER_structure_name(structure);
    if (name == NULL) return NULL;
    int selection = structure == COpenSSL_EC_DER_SPKI ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEYPAIR;
    EVP_PKEY *pkey = NULL;
    OSSL_DECODER_CTX *dctx = OSSL_DECODER_CTX_new_for_pkey(&pkey, "DER", name, "EC", selection, NULL, NULL);
    if (dctx == NULL) return NULL;
    const unsigned char *p = der;
    size_t len = der_len;
    if (OSSL_DECODER_from_data(dctx, &p, &len) != 1) {
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    OSSL_DECODER_CTX_free(dctx);
    *remaining = len;
    return pkey;
}

// Encodes an EC key as DER of the given structure, into a buffer the caller frees with COpenSSL_free.
// Same reason as above: OSSL_ENCODER_CTX keeps the output type / structure string pointers. Returns 1 on success.
static inline int COpenSSL_EC_encode_DER(const EVP_PKEY *pkey, int structure, unsigned char **out, size_t *out_len) {
    const char *name = COpenSSL_EC_DER_structure_name(structure);
    if (name == NULL) return 0;
    int selection = structure == COpenSSL_EC_DER_SPKI ? EVP_PKEY_PUBLIC_KEY : EVP_PKEY_KEYPAIR;
    OSSL_ENCODER_CTX *ectx = OSSL_ENCODER_CTX_new_for_pkey(pkey, selection, "DER", name, NULL);
    if (ectx == NULL) return 0;
    *out = NULL;
    *out_len = 0;
    int rc = OSSL_ENCODER_CTX_get_num_encoders(ectx) > 0 && OSSL_ENCODER_to_data(ectx, out, out_len) == 1;
    OSSL_ENCODER_CTX_free(ectx);
    return rc;
}

#endif
