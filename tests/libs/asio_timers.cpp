// asio (Debian libasio-dev 1.22): several coroutines cooperating on one io_context.
//
// - asio::co_spawn of asio::awaitable<T> with completion handlers that receive
//   (std::exception_ptr, T), and with asio::detached;
// - steady_timer waits with use_awaitable on ABSOLUTE deadlines (a shared start
//   time plus multiples of 50 ms), so the interleaving is fixed by the deadlines
//   as long as the work between two deadlines takes well under 50 ms;
// - asio::post(executor, use_awaitable) as an in-process yield;
// - a coroutine awaiting other awaitables (an int, a long, a struct holding a
//   string and a vector returned through them), recursion through awaitables;
// - exceptions thrown inside nested awaitables: caught by a try/catch in an
//   outer awaitable, and escaping to the co_spawn completion handler.
//
// Output is one line per event; the program exits 0 when every check held.
#include <asio.hpp>

#include <chrono>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

using asio::awaitable;
using asio::use_awaitable;
using clock_type = asio::steady_timer::clock_type;

static clock_type::time_point t0;
static int failures = 0;

static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("CHECK FAILED: %s\n", what);
        ++failures;
    }
}

// Waits until t0 + slot * 50 ms.
static awaitable<void> wait_slot(int slot) {
    asio::steady_timer timer(co_await asio::this_coro::executor);
    timer.expires_at(t0 + std::chrono::milliseconds(50 * slot));
    co_await timer.async_wait(use_awaitable);
}

// Two tickers whose slots interleave: "a" at 1, 3, 5, "b" at 2, 4, 6.
static awaitable<int> ticker(std::string name, int first, int count) {
    int sum = 0;
    for (int i = 0; i < count; ++i) {
        int slot = first + 2 * i;
        co_await wait_slot(slot);
        std::printf("tick %s slot %d\n", name.c_str(), slot);
        sum += slot;
    }
    co_return sum;
}

// In-process work: yields through asio::post between steps.
static awaitable<long> fib(int n) {
    if (n < 2) co_return n;
    co_await asio::post(co_await asio::this_coro::executor, use_awaitable);
    long a = co_await fib(n - 1);
    long b = co_await fib(n - 2);
    co_return a + b;
}

struct Record {
    std::string label;
    std::vector<int> values;
};

static awaitable<Record> make_record(std::string label, int n) {
    Record r{std::move(label), {}};
    for (int i = 0; i < n; ++i) {
        co_await asio::post(co_await asio::this_coro::executor, use_awaitable);
        r.values.push_back(i * i);
    }
    co_return r;
}

static awaitable<int> may_throw(int depth, bool fail) {
    if (depth == 0) {
        co_await asio::post(co_await asio::this_coro::executor, use_awaitable);
        if (fail) throw std::runtime_error("deep failure");
        co_return 1;
    }
    int below = co_await may_throw(depth - 1, fail);
    co_return below + 1;
}

// Catches an exception thrown three awaitables down, then goes on.
static awaitable<int> catcher() {
    int got = 0;
    try {
        got = co_await may_throw(3, true);
        std::printf("catcher: not reached\n");
    } catch (const std::runtime_error& e) {
        std::printf("catcher: caught '%s'\n", e.what());
        got = -1;
    }
    int ok = co_await may_throw(2, false);
    std::printf("catcher: after catch got=%d ok=%d\n", got, ok);
    co_return got + ok;
}

// Lets the exception escape to the co_spawn completion handler.
static awaitable<int> escaper() {
    co_await wait_slot(7);
    std::printf("escaper: about to fail\n");
    int v = co_await may_throw(2, true);
    std::printf("escaper: not reached %d\n", v);
    co_return v;
}

static int results = 0;

// Does the in-process work first (its interleaving is fixed by the order of posts), then starts
// the timed coroutines with t0 = now and waits past all of their deadlines.
static awaitable<void> driver() {
    auto ex = co_await asio::this_coro::executor;
    long f = co_await fib(12);
    std::printf("driver: fib(12)=%ld\n", f);
    check(f == 144, "fib(12) == 144");
    Record r = co_await make_record("squares", 5);
    std::printf("driver: %s:", r.label.c_str());
    for (int v : r.values) std::printf(" %d", v);
    std::printf("\n");
    int c = co_await catcher();
    check(c == 2, "catcher result");

    t0 = clock_type::now();
    asio::co_spawn(ex, ticker("a", 1, 3), [](std::exception_ptr e, int sum) {
        std::printf("ticker a done: sum=%d exception=%s\n", sum, e ? "yes" : "no");
        check(!e && sum == 9, "ticker a");
        ++results;
    });
    asio::co_spawn(ex, ticker("b", 2, 3), [](std::exception_ptr e, int sum) {
        std::printf("ticker b done: sum=%d exception=%s\n", sum, e ? "yes" : "no");
        check(!e && sum == 12, "ticker b");
        ++results;
    });
    asio::co_spawn(ex, escaper(), [](std::exception_ptr e, int) {
        try {
            if (e) std::rethrow_exception(e);
            std::printf("escaper done without exception\n");
        } catch (const std::exception& x) {
            std::printf("escaper done: handler caught '%s'\n", x.what());
        }
        check(e != nullptr, "escaper threw");
        ++results;
    });
    std::printf("driver: spawned three\n");
    co_await wait_slot(8);
    std::printf("driver: slot 8, %d results\n", results);
    ++results;
}

int main() {
    asio::io_context ctx;
    asio::co_spawn(ctx, driver(), asio::detached);
    std::size_t handlers = ctx.run();
    std::printf("io_context ran %s handlers; %d results\n", handlers > 100 ? "many" : "few", results);
    check(results == 4, "four results");
    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
