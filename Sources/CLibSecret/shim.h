#ifndef CLIBSECRET_SHIM_H
#define CLIBSECRET_SHIM_H

// libsecret (the Secret Service D-Bus API client used by GNOME Keyring and KWallet).
#include <stddef.h>
//
// The few GLib and libsecret declarations this package calls, written out here instead of
// `#include <libsecret/secret.h>`: that include needs libsecret's pkg-config flags, whose
// `-pthread` (from glib's gthread/gmodule .pc files) makes SwiftPM print "prohibited flag(s):
// -pthread" on every build of every package that depends on this one, SecretService users
// or not. Without pkg-config the module needs no include path at all; the libraries are named
// in module.modulemap. Each declaration is copied from GLib 2.x / libsecret 0.20 (stable ABI:
// the GError and GList layouts and the SecretSchema struct are public and frozen).
// Swift cannot call C variadic functions or build a SecretSchema (a fixed array of 32
// attributes), so the helpers at the end do that in C.

// GLib basic types (glib/gtypes.h, glibconfig.h).
typedef char gchar;
typedef int gint;
typedef unsigned int guint;
typedef gint gboolean;
typedef void *gpointer;
typedef const void *gconstpointer;
typedef unsigned long gsize;
typedef signed long gssize;
typedef unsigned int GQuark;
typedef guint (*GHashFunc)(gconstpointer key);
typedef gboolean (*GEqualFunc)(gconstpointer a, gconstpointer b);
typedef void (*GDestroyNotify)(gpointer data);

// GError (glib/gerror.h), GList (glib/glist.h); opaque GHashTable and GCancellable.
typedef struct _GError {
    GQuark domain;
    gint code;
    gchar *message;
} GError;
typedef struct _GList GList;
struct _GList {
    gpointer data;
    GList *next;
    GList *prev;
};
typedef struct _GHashTable GHashTable;
typedef struct _GCancellable GCancellable;

void g_free(gpointer mem);
gchar *g_strdup(const gchar *str);
guint g_str_hash(gconstpointer v);
gboolean g_str_equal(gconstpointer v1, gconstpointer v2);
GHashTable *g_hash_table_new_full(GHashFunc hash, GEqualFunc equal, GDestroyNotify key_destroy, GDestroyNotify value_destroy);
gboolean g_hash_table_insert(GHashTable *table, gpointer key, gpointer value);
void g_hash_table_unref(GHashTable *table);
void g_list_free_full(GList *list, GDestroyNotify free_func);
void g_object_unref(gpointer object);
void g_error_free(GError *error);
GQuark g_dbus_error_quark(void);
GQuark g_io_error_quark(void);

// libsecret (secret-types.h, secret-schema.h, secret-service.h, secret-item.h, secret-value.h).
// Services, items and values are GObjects / boxed types used only through pointers.
typedef struct _SecretService SecretService;
typedef struct _SecretItem SecretItem;
typedef struct _SecretValue SecretValue;

typedef enum {
    SECRET_ERROR_PROTOCOL = 1,
    SECRET_ERROR_IS_LOCKED = 2,
    SECRET_ERROR_NO_SUCH_OBJECT = 3,
    SECRET_ERROR_ALREADY_EXISTS = 4,
    SECRET_ERROR_INVALID_FILE_FORMAT = 5,
} SecretError;

typedef enum {
    SECRET_SEARCH_NONE = 0,
    SECRET_SEARCH_ALL = 1 << 1,
    SECRET_SEARCH_UNLOCK = 1 << 2,
    SECRET_SEARCH_LOAD_SECRETS = 1 << 3,
} SecretSearchFlags;

typedef enum {
    SECRET_SERVICE_NONE = 0,
    SECRET_SERVICE_OPEN_SESSION = 1 << 1,
    SECRET_SERVICE_LOAD_COLLECTIONS = 1 << 2,
} SecretServiceFlags;

typedef enum {
    SECRET_SCHEMA_ATTRIBUTE_STRING = 0,
    SECRET_SCHEMA_ATTRIBUTE_INTEGER = 1,
    SECRET_SCHEMA_ATTRIBUTE_BOOLEAN = 2,
} SecretSchemaAttributeType;

typedef struct {
    const gchar *name;
    SecretSchemaAttributeType type;
} SecretSchemaAttribute;

typedef enum {
    SECRET_SCHEMA_NONE = 0,
    SECRET_SCHEMA_DONT_MATCH_NAME = 1 << 1,
} SecretSchemaFlags;

typedef struct {
    const gchar *name;
    SecretSchemaFlags flags;
    SecretSchemaAttribute attributes[32];
    gint reserved;
    gpointer reserved1;
    gpointer reserved2;
    gpointer reserved3;
    gpointer reserved4;
    gpointer reserved5;
    gpointer reserved6;
    gpointer reserved7;
} SecretSchema;

GQuark secret_error_get_quark(void);
SecretService *secret_service_get_sync(SecretServiceFlags flags, GCancellable *cancellable, GError **error);
GList *secret_service_search_sync(SecretService *service, const SecretSchema *schema, GHashTable *attributes,
                                  SecretSearchFlags flags, GCancellable *cancellable, GError **error);
gboolean secret_service_store_sync(SecretService *service, const SecretSchema *schema, GHashTable *attributes,
                                   const gchar *collection, const gchar *label, SecretValue *value,
                                   GCancellable *cancellable, GError **error);
gboolean secret_service_clear_sync(SecretService *service, const SecretSchema *schema, GHashTable *attributes,
                                   GCancellable *cancellable, GError **error);
gboolean secret_item_get_locked(SecretItem *self);
SecretValue *secret_item_get_secret(SecretItem *self);
SecretValue *secret_value_new(const gchar *secret, gssize length, const gchar *content_type);
const gchar *secret_value_get(SecretValue *value, gsize *length);
void secret_value_unref(gpointer value);

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

// The secret error domain and the D-Bus and I/O error domains (macros calling functions in C).
static inline GQuark scm_secret_error_domain(void) { return secret_error_get_quark(); }
static inline GQuark scm_dbus_error_domain(void) { return g_dbus_error_quark(); }
static inline GQuark scm_io_error_domain(void) { return g_io_error_quark(); }

#endif
