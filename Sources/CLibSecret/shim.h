#ifndef CLIBSECRET_SHIM_H
#define CLIBSECRET_SHIM_H

// libsecret (the Secret Service D-Bus API client used by GNOME Keyring and KWallet). Swift
// cannot call C variadic functions or build a SecretSchema (a fixed array of 32 attributes),
// so the few helpers below do it in C.
#include <libsecret/secret.h>

// The schema of the items SQLCipherManager stores: one database key per (service, identifier).
static inline const SecretSchema *scm_key_schema(void) {
    static const SecretSchema schema = {
        "org.sqlcipher.SQLCipherManager.DatabaseKey", SECRET_SCHEMA_NONE,
        {
            { "service", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "identifier", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

// The attributes that find one key: a table owning copies of both strings.
static inline GHashTable *scm_key_attributes(const char *service, const char *identifier) {
    GHashTable *attributes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_hash_table_insert(attributes, g_strdup("service"), g_strdup(service));
    g_hash_table_insert(attributes, g_strdup("identifier"), g_strdup(identifier));
    return attributes;
}

// The shared SecretService proxy on the session bus ($DBUS_SESSION_BUS_ADDRESS), with an open
// transfer session (secrets cross D-Bus encrypted when the daemon supports it).
static inline SecretService *scm_service_open(GError **error) {
    return secret_service_get_sync(SECRET_SERVICE_OPEN_SESSION, NULL, error);
}

// Frees a list of SecretItem.
static inline void scm_items_free(GList *items) {
    g_list_free_full(items, g_object_unref);
}

// The secret error domain and the D-Bus error domain (macros calling functions in C).
static inline GQuark scm_secret_error_domain(void) { return SECRET_ERROR; }
static inline GQuark scm_dbus_error_domain(void) { return G_DBUS_ERROR; }
static inline GQuark scm_io_error_domain(void) { return G_IO_ERROR; }

#endif
