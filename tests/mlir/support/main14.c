/* main of the MLIR 14 test programs. Their entry point, `func @entry()`, awaits tasks, so
 * -async-to-async-runtime=eliminate-blocking-await-ops makes it a coroutine that returns an
 * !async.token (an opaque pointer) instead of blocking: wait for it here. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

void *entry(void);
void mlirAsyncRuntimeAwaitToken(void *token);
bool mlirAsyncRuntimeIsTokenError(void *token);
void mlirAsyncRuntimeDropRef(void *object, int64_t count);

int main(void) {
    void *token = entry();
    mlirAsyncRuntimeAwaitToken(token);
    bool error = mlirAsyncRuntimeIsTokenError(token);
    mlirAsyncRuntimeDropRef(token, 1);
    fflush(stdout);
    return error ? 1 : 0;
}
