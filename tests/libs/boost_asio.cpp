// Boost.Asio (Debian libboost1.81-dev, Asio 1.26): awaitables, the experimental coroutines and the
// composition facilities, on one io_context (one thread, so the order of events is fixed by posts
// and timer deadlines), plus a concurrent_channel between a two-thread pool and the io_context.
//
// - awaitable / co_spawn: awaitables awaiting awaitables with values and exceptions, co_spawn with a
//   completion handler (exception_ptr, value) and with detached;
// - boost::asio::experimental::coro: a generator coro<int> drained by a coro<void, int> started with
//   experimental::co_spawn, a coro<int(int)> resumed with a value each time, an exception crossing
//   from one coro to the one awaiting it;
// - boost::asio::experimental::promise (use_promise): a timer wait started eagerly and awaited
//   later, a promise whose owner cancels it;
// - channels: experimental::channel (unbuffered ping-pong) and experimental::concurrent_channel
//   (buffered, fed in order from a thread_pool, ended by a marker);
// - experimental::make_parallel_group: wait_for_all over deferred timer waits (completion order fixed
//   by the deadlines), wait_for_one (the other cancelled), and a ranged group over a vector of
//   deferred operations;
// - steady_timer waits on absolute deadlines (a shared start plus multiples of 100 ms).
//
// Output is one line per event; the program exits 0 when every check held.
#include <boost/asio.hpp>
#include <boost/asio/experimental/as_tuple.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/experimental/co_spawn.hpp>
#include <boost/asio/experimental/concurrent_channel.hpp>
#include <boost/asio/experimental/coro.hpp>
#include <boost/asio/experimental/parallel_group.hpp>
#include <boost/asio/experimental/promise.hpp>
#include <boost/asio/experimental/use_coro.hpp>
#include <boost/asio/experimental/use_promise.hpp>

#include <array>
#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace asio = boost::asio;
namespace ex = boost::asio::experimental;
using asio::awaitable;
using asio::use_awaitable;
using clock_type = asio::steady_timer::clock_type;
using error_code = boost::system::error_code;

static clock_type::time_point t0;
static int failures = 0;

static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("CHECK FAILED: %s\n", what);
        ++failures;
    }
}

static clock_type::time_point slot(int n) { return t0 + std::chrono::milliseconds(100 * n); }

// --- awaitable / co_spawn ----------------------------------------------------------------------

struct Summary {
    std::string name;
    std::vector<int> values;
};

static awaitable<int> triple(int x) {
    co_await asio::post(co_await asio::this_coro::executor, use_awaitable);
    if (x < 0) throw std::domain_error("negative input");
    co_return 3 * x;
}

static awaitable<Summary> summarize(std::string name, int n) {
    Summary s{std::move(name), {}};
    for (int i = 0; i < n; ++i) s.values.push_back(co_await triple(i));
    co_return s;
}

static awaitable<void> awaitable_part() {
    Summary s = co_await summarize("triples", 4);
    std::printf("awaitable: %s", s.name.c_str());
    for (int v : s.values) std::printf(" %d", v);
    std::printf("\n");
    check(s.values == std::vector<int>{0, 3, 6, 9}, "triples");
    try {
        co_await triple(-1);
        check(false, "no exception");
    } catch (const std::domain_error& e) {
        std::printf("awaitable: caught %s\n", e.what());
    }
}

// --- experimental::coro ------------------------------------------------------------------------

static ex::coro<int> countdown(asio::any_io_executor exec, int from) {
    for (int i = from; i > 0; --i) {
        co_await asio::post(exec, ex::use_coro);
        co_yield i;
    }
}

static ex::coro<void, int> drain(asio::any_io_executor exec) {
    auto gen = countdown(exec, 4);
    int product = 1;
    while (auto v = co_await gen) {
        std::printf("coro: countdown %d\n", *v);
        product *= *v;
    }
    co_return product;
}

static ex::coro<int(int)> largest_so_far(asio::any_io_executor) {
    int best = 0;
    for (;;) {
        int next = co_yield best;
        if (next < 0) co_return;
        if (next > best) best = next;
    }
}

static ex::coro<void, int> parse_digit(asio::any_io_executor, char c) {
    if (c < '0' || c > '9') throw std::invalid_argument(std::string("not a digit: ") + c);
    co_return c - '0';
}

static ex::coro<void, int> parse_number(asio::any_io_executor exec, std::string text) {
    int n = 0;
    for (char c : text) {
        try {
            n = n * 10 + co_await parse_digit(exec, c);
        } catch (const std::invalid_argument& e) {
            std::printf("coro: skipped (%s)\n", e.what());
        }
    }
    co_return n;
}

static awaitable<void> coro_part() {
    auto exec = co_await asio::this_coro::executor;
    int product = co_await ex::co_spawn(drain(exec), use_awaitable);
    std::printf("coro: product %d\n", product);
    check(product == 24, "countdown product");

    auto best = largest_so_far(exec);
    std::optional<int> b = co_await best.async_resume(0, use_awaitable);
    for (int x : {5, 2, 9, 7}) {
        b = co_await best.async_resume(x, use_awaitable);
        std::printf("coro: largest so far %d\n", b.value_or(-1));
    }
    check(b == 9, "largest");
    b = co_await best.async_resume(-1, use_awaitable);
    check(!b && !best.is_open(), "largest done");

    auto parser = parse_number(exec, "4x2");
    int n = co_await parser.async_resume(use_awaitable);
    std::printf("coro: parsed %d\n", n);
    check(n == 42, "parsed");
}

// --- experimental::promise ---------------------------------------------------------------------

static awaitable<void> promise_part() {
    auto exec = co_await asio::this_coro::executor;
    asio::steady_timer a(exec), b(exec);
    a.expires_at(slot(2));
    b.expires_at(slot(40));
    auto pa = a.async_wait(ex::use_promise);  // started now, awaited below
    std::printf("promise: started, completed %s\n", pa.completed() ? "yes" : "no");
    auto [ea] = co_await pa(ex::as_tuple(use_awaitable));
    std::printf("promise: timer %s, completed %s\n", ea ? "error" : "ok", pa.completed() ? "yes" : "no");
    check(!ea, "promise wait");

    auto pb = b.async_wait(ex::use_promise);
    asio::steady_timer c(exec);
    c.expires_at(slot(3));
    co_await c.async_wait(use_awaitable);
    pb.cancel();
    auto [eb] = co_await pb(ex::as_tuple(use_awaitable));
    std::printf("promise: cancelled wait %s\n", eb == asio::error::operation_aborted ? "aborted" : "not aborted");
    check(eb == asio::error::operation_aborted, "promise cancel");
}

// --- channels ----------------------------------------------------------------------------------

using ping_channel = ex::channel<void(error_code, int)>;

static awaitable<void> pinger(ping_channel& to, ping_channel& from) {
    for (int i = 0; i < 3; ++i) {
        co_await to.async_send(error_code{}, i, use_awaitable);
        int back = co_await from.async_receive(use_awaitable);
        std::printf("channel: ping %d got pong %d\n", i, back);
    }
    to.close();
}

static awaitable<void> ponger(ping_channel& from, ping_channel& to) {
    for (;;) {
        auto [e, v] = co_await from.async_receive(ex::as_tuple(use_awaitable));
        if (e) {
            std::printf("channel: ponger stops (%s)\n", e == ex::error::channel_closed ? "closed" : "error");
            co_return;
        }
        co_await to.async_send(error_code{}, v * 100, use_awaitable);
    }
}

using work_channel = ex::concurrent_channel<void(error_code, int)>;

// Runs on the pool: sends 1..5 squared, in order, then -1 as the end (closing the channel from here
// could drop what is still buffered, depending on the threads' timing).
static awaitable<void> pool_producer(work_channel& ch) {
    for (int i = 1; i <= 5; ++i) co_await ch.async_send(error_code{}, i * i, use_awaitable);
    co_await ch.async_send(error_code{}, -1, use_awaitable);
}

static awaitable<void> channel_part(asio::thread_pool& pool) {
    auto exec = co_await asio::this_coro::executor;
    ping_channel ping(exec), pong(exec);
    asio::co_spawn(exec, ponger(ping, pong), asio::detached);
    co_await pinger(ping, pong);

    work_channel work(exec, 2);
    asio::co_spawn(pool, pool_producer(work), asio::detached);
    int total = 0;
    for (;;) {
        auto [e, v] = co_await work.async_receive(ex::as_tuple(use_awaitable));
        check(!e, "pool receive");
        if (e || v < 0) break;
        std::printf("channel: from the pool %d\n", v);
        total += v;
    }
    work.close();
    std::printf("channel: pool total %d\n", total);
    check(total == 55, "pool total");
}

// --- parallel_group ----------------------------------------------------------------------------

static awaitable<void> group_part() {
    auto exec = co_await asio::this_coro::executor;
    asio::steady_timer x(exec), y(exec), z(exec);
    x.expires_at(slot(6));
    y.expires_at(slot(5));
    z.expires_at(slot(7));
    auto [order, ex_, ey, ez] = co_await ex::make_parallel_group(x.async_wait(asio::deferred),
                                                                 y.async_wait(asio::deferred),
                                                                 z.async_wait(asio::deferred))
                                    .async_wait(ex::wait_for_all(), use_awaitable);
    std::printf("group: all in order %zu %zu %zu\n", order[0], order[1], order[2]);
    check(order == std::array<std::size_t, 3>{1, 0, 2} && !ex_ && !ey && !ez, "wait_for_all");

    asio::steady_timer slow(exec), fast(exec);
    slow.expires_at(slot(40));
    fast.expires_at(slot(8));
    auto [order2, es, ef] =
        co_await ex::make_parallel_group(slow.async_wait(asio::deferred), fast.async_wait(asio::deferred))
            .async_wait(ex::wait_for_one(), use_awaitable);
    std::printf("group: first %zu, slow %s, fast %s\n", order2[0],
                es == asio::error::operation_aborted ? "cancelled" : "not cancelled", ef ? "error" : "ok");
    check(order2[0] == 1 && es == asio::error::operation_aborted && !ef, "wait_for_one");

    // A ranged group: timers due at slots 11, 9, 10.
    std::vector<asio::steady_timer> timers;
    for (int s : {11, 9, 10}) {
        timers.emplace_back(exec);
        timers.back().expires_at(slot(s));
    }
    using op_type = decltype(timers[0].async_wait(asio::deferred));
    std::vector<op_type> ops;
    for (auto& t : timers) ops.push_back(t.async_wait(asio::deferred));
    auto [order3, errors] =
        co_await ex::make_parallel_group(std::move(ops)).async_wait(ex::wait_for_all(), use_awaitable);
    std::printf("group: ranged order");
    for (auto i : order3) std::printf(" %zu", i);
    std::printf(", %zu results\n", errors.size());
    check(order3 == std::vector<std::size_t>{1, 2, 0} && errors.size() == 3, "ranged group");
}

static awaitable<int> all_parts(asio::thread_pool& pool) {
    co_await awaitable_part();
    co_await coro_part();
    co_await promise_part();
    co_await channel_part(pool);
    co_await group_part();
    co_return 7;
}

int main() {
    asio::io_context ctx;
    asio::thread_pool pool(2);
    t0 = clock_type::now();
    int result = 0;
    asio::co_spawn(ctx, all_parts(pool), [&](std::exception_ptr e, int r) {
        result = r;
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
    pool.join();
    check(result == 7, "result");
    std::printf("%s\n", failures == 0 ? "all checks passed" : "some checks failed");
    return failures == 0 ? 0 : 1;
}
