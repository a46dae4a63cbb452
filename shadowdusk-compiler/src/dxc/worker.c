/* shadowdusk-dxc-worker: runs DXC in a process of its own, so that DXC crashing or looping on
 * some input ends this process and not the build script, rustc or game that asked.
 *
 * Started by `worker.rs` (which also documents the protocol) as
 *     shadowdusk-dxc-worker LIBRARY IDLE_SECONDS LIMIT_SECONDS
 * where LIBRARY is the DXC shared library to load (a path, or a bare file name for the system
 * loader's search). It answers requests on stdin/stdout, one at a time, until stdin ends or no
 * request came for IDLE_SECONDS. A request still running after LIMIT_SECONDS ends the process
 * (SIGALRM), so a worker whose parent is gone never loops forever.
 *
 * Why C and not Rust: this is built by the compiler's build script with the C compiler the
 * build already needs for SPIRV-Cross, for the target the compiler itself is built for, with
 * no crate to resolve. It only moves bytes between the pipe and DXC's COM interface; every
 * decision (arguments, retries, message parsing) stays in Rust.
 *
 * Every number on the wire is a little-endian u32.
 *   hello    (worker, once):   u32 length, then "ok" or why DXC could not be loaded
 *   request  (parent):         u32 length, then fields, each u32 length + bytes:
 *                              source, source name, entry point, profile, then u32 count and
 *                              that many arguments
 *   ack      (worker):         one byte 'R' once the whole request has been read
 *   answer   (worker):         u32 length, then u32 call HRESULT, u32 compile status,
 *                              u32 length + object bytes, u32 length + UTF-8 error text
 */

#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

/* A request larger than this is not a shader; the worker refuses it by exiting. */
#define MAX_REQUEST (64u * 1024u * 1024u)

typedef int32_t HRESULT;
typedef struct {
    uint32_t data1;
    uint16_t data2, data3;
    uint8_t data4[8];
} GUID;

static const GUID CLSID_DxcCompiler = {0x73e22d93, 0xe6ce, 0x47f3,
                                       {0xb5, 0xbf, 0xf0, 0x66, 0x4f, 0x39, 0xc1, 0xb0}};
static const GUID CLSID_DxcLibrary = {0x6245d6af, 0x66e0, 0x48fd,
                                      {0x80, 0xb4, 0x4d, 0x27, 0x17, 0x96, 0x74, 0x8c}};
static const GUID IID_IDxcCompiler = {0x8c210bf3, 0x011f, 0x4422,
                                      {0x8d, 0x70, 0x6f, 0x9a, 0xcb, 0x8d, 0xb6, 0x17}};
static const GUID IID_IDxcLibrary = {0xe5204dc7, 0xd18c, 0x4c3c,
                                     {0xbd, 0xfb, 0x85, 0x16, 0x73, 0x98, 0x0f, 0xe7}};

/* COM objects are a pointer to a table of functions; DXC 1.8 lays IUnknown out as on Windows
 * (QueryInterface, AddRef, Release first), then each interface's methods in declaration order. */
typedef struct {
    void **vtbl;
} Com;
#define SLOT(obj, n) (((Com *)(obj))->vtbl[n])
enum {
    RELEASE = 2,
    BLOB_POINTER = 3,
    BLOB_SIZE = 4,
    LIBRARY_BLOB_FROM_PINNED = 6,
    LIBRARY_BLOB_AS_UTF8 = 11,
    RESULT_STATUS = 3,
    RESULT_OBJECT = 4,
    RESULT_ERRORS = 5,
    COMPILER_COMPILE = 3,
};

typedef HRESULT (*CreateInstance)(const GUID *, const GUID *, void **);
typedef uint32_t (*ReleaseFn)(void *);
typedef void *(*BlobPointerFn)(void *);
typedef size_t (*BlobSizeFn)(void *);
typedef HRESULT (*BlobFromPinnedFn)(void *, const void *, uint32_t, uint32_t, void **);
typedef HRESULT (*BlobAsUtf8Fn)(void *, void *, void **);
typedef HRESULT (*StatusFn)(void *, uint32_t *);
typedef HRESULT (*GetBlobFn)(void *, void **);
typedef HRESULT (*CompileFn)(void *, void *, const wchar_t *, const wchar_t *, const wchar_t *,
                             const wchar_t **, uint32_t, const void *, uint32_t, void *, void **);

static void release(void *obj) {
    if (obj) ((ReleaseFn)SLOT(obj, RELEASE))(obj);
}

static int write_all(const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(1, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        p += n;
        len -= (size_t)n;
    }
    return 1;
}

/* Reads exactly `len` bytes; 0 at end of input or on an error. */
static int read_all(void *data, size_t len) {
    char *p = data;
    while (len > 0) {
        ssize_t n = read(0, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0;
        p += n;
        len -= (size_t)n;
    }
    return 1;
}

static void put_u32(unsigned char *at, uint32_t v) {
    at[0] = (unsigned char)v;
    at[1] = (unsigned char)(v >> 8);
    at[2] = (unsigned char)(v >> 16);
    at[3] = (unsigned char)(v >> 24);
}

static uint32_t get_u32(const unsigned char *at) {
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static int write_frame(const void *data, uint32_t len) {
    unsigned char head[4];
    put_u32(head, len);
    return write_all(head, 4) && write_all(data, len);
}

/* A cursor over the request's fields. */
typedef struct {
    const unsigned char *at, *end;
} Reader;

/* The next field, or NULL when the request is malformed. */
static const unsigned char *field(Reader *r, uint32_t *len) {
    if (r->end - r->at < 4) return NULL;
    *len = get_u32(r->at);
    r->at += 4;
    if ((size_t)(r->end - r->at) < *len) return NULL;
    const unsigned char *f = r->at;
    r->at += *len;
    return f;
}

/* UTF-8 to the platform's wide string (what DXC's LPCWSTR is outside Windows); NULL when the
 * bytes are not UTF-8. */
static wchar_t *widen(const unsigned char *s, uint32_t len) {
    wchar_t *out = malloc(((size_t)len + 1) * sizeof(wchar_t));
    size_t n = 0;
    if (!out) return NULL;
    for (uint32_t i = 0; i < len;) {
        uint32_t c = s[i], extra;
        if (c < 0x80) extra = 0;
        else if ((c & 0xe0) == 0xc0) extra = 1, c &= 0x1f;
        else if ((c & 0xf0) == 0xe0) extra = 2, c &= 0x0f;
        else if ((c & 0xf8) == 0xf0) extra = 3, c &= 0x07;
        else goto bad;
        if (len - i <= extra) goto bad;
        for (uint32_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xc0) != 0x80) goto bad;
            c = c << 6 | (s[i + k] & 0x3f);
        }
        i += extra + 1;
        out[n++] = (wchar_t)c;
    }
    out[n] = 0;
    return out;
bad:
    free(out);
    return NULL;
}

static void blob_bytes(void *blob, const void **data, uint32_t *len) {
    *data = NULL;
    *len = 0;
    if (!blob) return;
    void *p = ((BlobPointerFn)SLOT(blob, BLOB_POINTER))(blob);
    size_t n = ((BlobSizeFn)SLOT(blob, BLOB_SIZE))(blob);
    if (p && n > 0 && n <= UINT32_MAX) {
        *data = p;
        *len = (uint32_t)n;
    }
}

/* Sends the answer: HRESULTs, object and error text. */
static int answer(HRESULT hr, uint32_t status, const void *object, uint32_t object_len,
                  const void *errors, uint32_t errors_len) {
    unsigned char head[20];
    uint32_t total = 16 + object_len + errors_len;
    put_u32(head, total);
    put_u32(head + 4, (uint32_t)hr);
    put_u32(head + 8, status);
    put_u32(head + 12, object_len);
    return write_all(head, 16) && write_all(object, object_len) &&
           (put_u32(head + 16, errors_len), write_all(head + 16, 4)) &&
           write_all(errors, errors_len);
}

/* A refusal of the request itself (not DXC's): HRESULT E_INVALIDARG and the reason as text. */
static int refuse(const char *why) {
    return answer((HRESULT)0x80070057, 0, NULL, 0, why, (uint32_t)strlen(why));
}

static int serve(void *compiler, void *library, const unsigned char *req, uint32_t req_len,
                 unsigned limit_seconds) {
    Reader r = {req, req + req_len};
    uint32_t lens[4], argc;
    const unsigned char *f[4];
    for (int i = 0; i < 4; i++)
        if (!(f[i] = field(&r, &lens[i]))) return refuse("malformed request");
    if (r.end - r.at < 4) return refuse("malformed request");
    argc = get_u32(r.at);
    r.at += 4;
    if (argc > 256) return refuse("too many arguments");

    wchar_t *wide[3 + 256] = {0};
    int ok = 1;
    for (int i = 0; i < 3 && ok; i++) ok = (wide[i] = widen(f[i + 1], lens[i + 1])) != NULL;
    for (uint32_t a = 0; a < argc && ok; a++) {
        uint32_t len;
        const unsigned char *arg = field(&r, &len);
        ok = arg && (wide[3 + a] = widen(arg, len)) != NULL;
    }
    int sent;
    if (!ok) {
        sent = refuse("a name or argument is not UTF-8, or the request is malformed");
    } else {
        void *source = NULL, *result = NULL, *object = NULL, *errors = NULL, *utf8 = NULL;
        uint32_t status = 0;
        const void *object_data, *error_data;
        uint32_t object_len, error_len;
        alarm(limit_seconds);
        HRESULT hr = ((BlobFromPinnedFn)SLOT(library, LIBRARY_BLOB_FROM_PINNED))(
            library, f[0], lens[0], 65001 /* CP_UTF8 */, &source);
        if (hr >= 0)
            hr = ((CompileFn)SLOT(compiler, COMPILER_COMPILE))(
                compiler, source, wide[0], wide[1], wide[2], (const wchar_t **)&wide[3], argc,
                NULL, 0, NULL, &result);
        if (result) {
            HRESULT s = ((StatusFn)SLOT(result, RESULT_STATUS))(result, &status);
            if (hr >= 0 && s < 0) hr = s;
            if (hr >= 0 && status == 0) ((GetBlobFn)SLOT(result, RESULT_OBJECT))(result, &object);
            ((GetBlobFn)SLOT(result, RESULT_ERRORS))(result, &errors);
            blob_bytes(errors, &error_data, &error_len);
            if (error_len > 0)
                ((BlobAsUtf8Fn)SLOT(library, LIBRARY_BLOB_AS_UTF8))(library, errors, &utf8);
        }
        alarm(0);
        blob_bytes(object, &object_data, &object_len);
        blob_bytes(utf8, &error_data, &error_len);
        sent = answer(hr, status, object_data, object_len, error_data, error_len);
        release(utf8);
        release(errors);
        release(object);
        release(result);
        release(source);
    }
    for (uint32_t i = 0; i < 3 + argc; i++) free(wide[i]);
    return sent;
}

/* Waits for the next request; 0 when none came within `idle_seconds` or stdin ended. */
static int next_request(unsigned idle_seconds) {
    struct pollfd p = {0, POLLIN, 0};
    for (;;) {
        int ready = poll(&p, 1, (int)(idle_seconds * 1000u));
        if (ready < 0 && errno == EINTR) continue;
        return ready > 0;
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s LIBRARY IDLE_SECONDS LIMIT_SECONDS\n", argv[0]);
        return 2;
    }
    unsigned idle = (unsigned)strtoul(argv[2], NULL, 10);
    unsigned limit = (unsigned)strtoul(argv[3], NULL, 10);
    /* A parent that is gone is a closed pipe: end quietly instead of dying of SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGALRM, SIG_DFL);

    void *dxc = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    CreateInstance create = dxc ? (CreateInstance)dlsym(dxc, "DxcCreateInstance") : NULL;
    void *compiler = NULL, *library = NULL;
    char why[512];
    if (!dxc) snprintf(why, sizeof why, "cannot load %s: %s", argv[1], dlerror());
    else if (!create) snprintf(why, sizeof why, "%s has no DxcCreateInstance", argv[1]);
    else if (create(&CLSID_DxcCompiler, &IID_IDxcCompiler, &compiler) < 0 || !compiler ||
             create(&CLSID_DxcLibrary, &IID_IDxcLibrary, &library) < 0 || !library)
        snprintf(why, sizeof why, "%s loaded but could not create a compiler", argv[1]);
    else strcpy(why, "ok");
    if (!write_frame(why, (uint32_t)strlen(why)) || strcmp(why, "ok") != 0) return 1;

    while (next_request(idle)) {
        unsigned char head[4];
        if (!read_all(head, 4)) return 0;
        uint32_t len = get_u32(head);
        if (len > MAX_REQUEST) return 3;
        unsigned char *req = malloc(len ? len : 1);
        if (!req || !read_all(req, len)) return 0;
        if (!write_all("R", 1) || !serve(compiler, library, req, len, limit)) return 0;
        free(req);
    }
    return 0;
}
