// asio (Debian libasio-dev 1.22): the experimental coroutine and composition facilities on one
// io_context (one thread, so the order of events is fixed by posts and timer deadlines).
//
// - asio::experimental::coro: a generator coro<int> resumed by another coro (`co_await gen` until it
//   is done), a task coro<void, int> started with experimental::co_spawn and with async_resume, a
//   coro<int(int)> that receives a value at each resumption, an exception thrown in a coro and
//   caught by the one awaiting it;
// - asio::experimental::promise: timer waits turned into promises with use_promise, waited with
//   async_wait, and combined with promise<>::all and promise<>::race (the loser is cancelled);
// - asio::experimental::make_parallel_group over deferred timer waits and a deferred post:
//   wait_for_all (the completion order is fixed by the deadlines) and wait_for_one (the others
//   cancelled: operation_aborted);
// - asio::experimental::concurrent_channel: a buffered channel between two awaitables, closed by the
//   producer;
// - steady_timer waits on absolute deadlines (a shared start plus multiples of 100 ms).
//
// Output is one line per event; the program exits 0 when every check held.
#include <asio.hpp>
#include <asio/experimental/as_tuple.hpp>
// channel.hpp first: asio 1.22's concurrent_channel.hpp alone does not compile with clang (its
// channel_service then names execution_context before it is declared).
#include <asio/experimental/channel.hpp>
#include <asio/experimental/co_spawn.hpp>
#include <asio/experimental/concurrent_channel.hpp>
#include <asio/experimental/coro.hpp>
#include <asio/experimental/deferred.hpp>
#include <asio/experimental/parallel_group.hpp>
#include <asio/experimental/promise.hpp>
#include <asio/experimental/use_coro.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>

namespace ex = asio::experimental;
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

static clock_type::time_point slot(int n) { return t0 + std::chrono::milliseconds(100 * n); }

// --- experimental::coro ------------------------------------------------------------------------

// A generator: yields the squares below `n`, posting between them.
static ex::coro<int> squares(asio::any_io_executor exec, int n) {
    for (int i = 0; i < n; ++i) {
        co_await asio::post(exec, ex::use_coro);
        co_yield i * i;
    }
}

// A task that drains the generator.
static ex::coro<void, int> sum_squares(asio::any_io_executor exec, int n) {
    auto gen = squares(exec, n);
    int sum = 0;
    while (auto v = co_await gen) {
        std::printf("coro: square %d\n", *v);
        sum += *v;
    }
    co_return sum;
}

// Receives a value at every resumption, yields the running total.
static ex::coro<int(int)> running_total(asio::any_io_executor) {
    int total = 0;
    for (;;) {
        int next = co_yield total;
        if (next < 0) co_return;
        total += next;
    }
}

static ex::coro<void, int> checked_divide(asio::any_io_executor, int a, int b) {
    if (b == 0) throw std::invalid_argument("division by zero");
    co_return a / b;
}

static ex::coro<void, std::string> divide_all(asio::any_io_executor exec) {
    std::string out;
    for (int b : {4, 0, 2}) {
        try {
            int q = co_await checked_divide(exec, 12, b);
            out += std::to_string(q) + " ";
        } catch (const std::invalid_argument& e) {
            out += std::string("[") + e.what() + "] ";
        }
    }
    co_return out;
}

// --- awaitables that drive the rest ----------------------------------------------------------

static awaitable<void> coro_part() {
    auto exec = co_await asio::this_coro::executor;
    int sum = co_await ex::co_spawn(sum_squares(exec, 5), use_awaitable);
    std::printf("coro: sum of squares %d\n", sum);
    check(sum == 30, "sum of squares");

    auto acc = running_total(exec);
    std::optional<int> t = co_await acc.async_resume(0, use_awaitable);  // runs to the first co_yield
    for (int x : {3, 4, 5}) {
        t = co_await acc.async_resume(x, use_awaitable);
        std::printf("coro: running total %d\n", t.value_or(-1));
    }
    check(t == 12, "running total");
    t = co_await acc.async_resume(-1, use_awaitable);
    std::printf("coro: accumulator %s\n", t ? "still open" : "done");
    check(!t && !acc.is_open(), "accumulator done");

    auto task = divide_all(exec);
    std::string text = co_await task.async_resume(use_awaitable);
    std::printf("coro: divisions %s\n", text.c_str());
    check(text == "3 [division by zero] 6 ", "divisions");
}

static awaitable<void> promise_part() {
    auto exec = co_await asio::this_coro::executor;
    asio::steady_timer a(exec), b(exec), c(exec);
    a.expires_at(slot(2));
    b.expires_at(slot(1));
    c.expires_at(slot(9));

    auto pa = a.async_wait(ex::use_promise);
    auto pb = b.async_wait(ex::use_promise);
    auto both = ex::promise<>::all(std::move(pa), std::move(pb));
    auto [ea, eb] = co_await both.async_wait(ex::as_tuple(use_awaitable));
    std::printf("promise: all done (%s, %s)\n", ea ? "error" : "ok", eb ? "error" : "ok");
    check(!ea && !eb, "promise all");

    asio::steady_timer d(exec);
    d.expires_at(slot(3));
    auto first = ex::promise<>::race(d.async_wait(ex::use_promise), c.async_wait(ex::use_promise));
    auto winner = co_await first.async_wait(use_awaitable);
    std::printf("promise: race won by %zu\n", winner.index());
    check(winner.index() == 0, "race winner");

    asio::steady_timer e(exec);
    e.expires_at(slot(4));
    auto pe = e.async_wait(ex::use_promise);
    auto [ee] = co_await pe.async_wait(ex::as_tuple(use_awaitable));
    std::printf("promise: single wait %s\n", ee ? "error" : "ok");
}

static awaitable<void> group_part() {
    auto exec = co_await asio::this_coro::executor;
    asio::steady_timer x(exec), y(exec), z(exec);
    x.expires_at(slot(6));
    y.expires_at(slot(5));
    z.expires_at(slot(7));
    auto [order, ex_, ey, ez] =
        co_await ex::make_parallel_group(x.async_wait(ex::deferred), y.async_wait(ex::deferred),
                                         z.async_wait(ex::deferred))
            .async_wait(ex::wait_for_all(), use_awaitable);
    std::printf("group: all in order %zu %zu %zu\n", order[0], order[1], order[2]);
    check(order == std::array<std::size_t, 3>{1, 0, 2} && !ex_ && !ey && !ez, "wait_for_all");

    asio::steady_timer slow(exec), fast(exec);
    slow.expires_at(slot(30));
    fast.expires_at(slot(8));
    auto [order2, es, ef] =
        co_await ex::make_parallel_group(slow.async_wait(ex::deferred), fast.async_wait(ex::deferred))
            .async_wait(ex::wait_for_one(), use_awaitable);
    std::printf("group: first %zu, slow %s, fast %s\n", order2[0],
                es == asio::error::operation_aborted ? "cancelled" : "not cancelled", ef ? "error" : "ok");
    check(order2[0] == 1 && es == asio::error::operation_aborted && !ef, "wait_for_one");
}

using int_channel = ex::concurrent_channel<void(asio::error_code, int)>;

static awaitable<void> producer(int_channel& ch) {
    for (int i = 1; i <= 5; ++i) {
        co_await ch.async_send(asio::error_code{}, i * 10, use_awaitable);
        std::printf("channel: sent %d\n", i * 10);
    }
    ch.close();
}

static awaitable<int> consumer(int_channel& ch) {
    int total = 0;
    try {
        for (;;) {
            int v = co_await ch.async_receive(use_awaitable);
            std::printf("channel: received %d\n", v);
            total += v;
        }
    } catch (const asio::system_error& e) {
        std::printf("channel: closed (%s)\n",
                    e.code() == ex::error::channel_closed ? "channel_closed" : "other error");
    }
    co_return total;
}

static awaitable<void> channel_part() {
    auto exec = co_await asio::this_coro::executor;
    int_channel ch(exec, 2);
    asio::co_spawn(exec, producer(ch), asio::detached);
    int total = co_await consumer(ch);
    std::printf("channel: total %d\n", total);
    check(total == 150, "channel total");
}

static awaitable<void> all_parts() {
    co_await coro_part();
    co_await channel_part();
    co_await promise_part();
    co_await group_part();
}

int main() {
    asio::io_context ctx;
    t0 = clock_type::now();
    bool finished = false;
    asio::co_spawn(ctx, all_parts(), [&](std::exception_ptr e) {
        finished = true;
        if (e) {
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& x) {
                std::printf("unexpected exception: %s\n", x.what());
                ++failures;
            }
        }
    });
    ctx.run();
    check(finished, "finished");
    std::printf("%s\n", failures == 0 ? "all checks passed" : "some checks failed");
    return failures == 0 ? 0 : 1;
}
