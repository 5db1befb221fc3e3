/* MLIR 14's libmlir_async_runtime.so exports none of the mlirAsyncRuntime* functions the lowered
 * IR calls: it hands their addresses to mlir-cpu-runner through
 *
 *     extern "C" void __mlir_runner_init(llvm::StringMap<void *> &exportSymbols);
 *
 * This shim, linked into the test executables of the MLIR 14 configurations, calls it once before
 * main with an empty StringMap built by hand (LLVM 14's layout: the StringMapImpl fields; a table
 * of NumBuckets entry pointers, each entry a key length and the value followed by the key), copies
 * the addresses out, and defines each runtime function as a call through its address. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* llvm::StringMapImpl in LLVM 14. */
struct string_map {
    void **table;
    unsigned num_buckets;
    unsigned num_items;
    unsigned num_tombstones;
    unsigned item_size;
};

/* llvm::StringMapEntry<void *>: StringMapEntryBase { size_t keyLength; } then the value, then the
 * key's characters. */
struct string_map_entry {
    size_t key_length;
    void *value;
};

/* StringMapImpl::getTombstoneVal(): -1 shifted left by log2(alignof(StringMapEntryBase)). */
#define TOMBSTONE ((void *)(uintptr_t)(-8))

void __mlir_runner_init(struct string_map *export_symbols);

#define RUNTIME_FUNCTIONS(X)                                                                       \
    X(void, mlirAsyncRuntimeAddRef, (void *p, int64_t n), (p, n))                                  \
    X(void, mlirAsyncRuntimeDropRef, (void *p, int64_t n), (p, n))                                 \
    X(void *, mlirAsyncRuntimeCreateToken, (void), ())                                             \
    X(void *, mlirAsyncRuntimeCreateValue, (int64_t size), (size))                                 \
    X(void *, mlirAsyncRuntimeCreateGroup, (int64_t size), (size))                                 \
    X(int64_t, mlirAsyncRuntimeAddTokenToGroup, (void *t, void *g), (t, g))                        \
    X(void, mlirAsyncRuntimeEmplaceToken, (void *t), (t))                                          \
    X(void, mlirAsyncRuntimeEmplaceValue, (void *v), (v))                                          \
    X(void, mlirAsyncRuntimeSetTokenError, (void *t), (t))                                         \
    X(void, mlirAsyncRuntimeSetValueError, (void *v), (v))                                         \
    X(bool, mlirAsyncRuntimeIsTokenError, (void *t), (t))                                          \
    X(bool, mlirAsyncRuntimeIsValueError, (void *v), (v))                                          \
    X(bool, mlirAsyncRuntimeIsGroupError, (void *g), (g))                                          \
    X(void, mlirAsyncRuntimeAwaitToken, (void *t), (t))                                            \
    X(void, mlirAsyncRuntimeAwaitValue, (void *v), (v))                                            \
    X(void, mlirAsyncRuntimeAwaitAllInGroup, (void *g), (g))                                       \
    X(void, mlirAsyncRuntimeExecute, (void *h, void (*r)(void *)), (h, r))                         \
    X(void *, mlirAsyncRuntimeGetValueStorage, (void *v), (v))                                     \
    X(void, mlirAsyncRuntimeAwaitTokenAndExecute, (void *t, void *h, void (*r)(void *)), (t, h, r)) \
    X(void, mlirAsyncRuntimeAwaitValueAndExecute, (void *v, void *h, void (*r)(void *)), (v, h, r)) \
    X(void, mlirAsyncRuntimeAwaitAllInGroupAndExecute, (void *g, void *h, void (*r)(void *)),      \
      (g, h, r))                                                                                   \
    X(int64_t, mlirAsyncRuntimGetNumWorkerThreads, (void), ())

#define POINTER(ret, name, params, args) static ret(*p_##name) params;
RUNTIME_FUNCTIONS(POINTER)

#define DEFINE(ret, name, params, args) \
    ret name params { return p_##name args; }
RUNTIME_FUNCTIONS(DEFINE)

__attribute__((constructor)) static void llcoro_mlir14_runtime_init(void) {
    struct string_map map = {NULL, 0, 0, 0, sizeof(struct string_map_entry)};
    __mlir_runner_init(&map);
    for (unsigned i = 0; i < map.num_buckets; i++) {
        struct string_map_entry *e = map.table[i];
        if (e == NULL || (void *)e == TOMBSTONE)
            continue;
        const char *key = (const char *)(e + 1);
#define LOOKUP(ret, name, params, args)                                         \
        if (e->key_length == strlen(#name) && memcmp(key, #name, e->key_length) == 0) \
            p_##name = (ret(*) params)e->value;
        RUNTIME_FUNCTIONS(LOOKUP)
    }
    /* The map is left allocated: it lives as long as the process. */
#define CHECK(ret, name, params, args)                                               \
    if (p_##name == NULL) {                                                          \
        fprintf(stderr, "async_runtime14: __mlir_runner_init exported no " #name "\n"); \
        abort();                                                                     \
    }
    RUNTIME_FUNCTIONS(CHECK)
}
