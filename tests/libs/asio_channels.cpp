// asio (Debian libasio-dev 1.22): strands on a two-thread pool and
// asio::experimental::channel.
//
// - coroutines co_spawned on one strand of an asio::thread_pool with two
//   threads: their frames are resumed on either thread, but never at the same
//   time, so a plain (non-atomic) counter that they increment between suspends
//   stays exact;
// - ping-pong through two unbuffered channels (every line is caused by the
//   previous one, so the order is fixed);
// - a buffered channel drained by a consumer, closed by the producer: the
//   consumer's receive then fails with experimental::error::channel_closed,
//   caught as asio::system_error;
// - an exception thrown on the pool and delivered to the co_spawn completion
//   handler, which runs on the strand;
// - coroutines on several strands adding to an atomic, each strand with its
//   own plain counter.
//
// Printing happens on the one strand `main_strand` or after the pool joined;
// the program exits 0 when every check held.
#include <asio.hpp>
#include <asio/experimental/channel.hpp>

#include <atomic>
#include <cstdio>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using asio::awaitable;
using asio::use_awaitable;
using strand_type = asio::strand<asio::thread_pool::executor_type>;
using int_channel = asio::experimental::channel<void(asio::error_code, int)>;

static int failures = 0;

static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("CHECK FAILED: %s\n", what);
        ++failures;
    }
}

// --- strand serialization --------------------------------------------------------------------

static long plain_counter = 0;  // only touched on main_strand

static awaitable<int> bump(int id, int rounds) {
    for (int i = 0; i < rounds; ++i) {
        ++plain_counter;
        co_await asio::post(co_await asio::this_coro::executor, use_awaitable);
        ++plain_counter;
        co_await asio::dispatch(co_await asio::this_coro::executor, use_awaitable);
    }
    co_return id;
}

// --- ping-pong ---------------------------------------------------------------------------------

static awaitable<void> pinger(int_channel& ping, int_channel& pong, int rounds) {
    for (int i = 0; i < rounds; ++i) {
        std::printf("ping %d\n", i);
        co_await ping.async_send(asio::error_code{}, i, use_awaitable);
        int back = co_await pong.async_receive(use_awaitable);
        std::printf("got pong %d\n", back);
        check(back == i * 10, "pong value");
    }
    ping.close();
}

static awaitable<int> ponger(int_channel& ping, int_channel& pong) {
    int handled = 0;
    for (;;) {
        int v = 0;
        try {
            v = co_await ping.async_receive(use_awaitable);
        } catch (const asio::system_error& e) {
            bool closed = e.code() == asio::experimental::error::channel_closed;
            std::printf("ponger: ping channel %s after %d\n", closed ? "closed" : "failed", handled);
            break;
        }
        std::printf("pong %d\n", v * 10);
        co_await pong.async_send(asio::error_code{}, v * 10, use_awaitable);
        ++handled;
    }
    co_return handled;
}

// --- buffered channel ------------------------------------------------------------------------

static awaitable<void> producer(std::shared_ptr<int_channel> ch, int count) {
    for (int i = 1; i <= count; ++i) co_await ch->async_send(asio::error_code{}, i * i, use_awaitable);
    ch->close();
}

static awaitable<std::vector<int>> consumer(std::shared_ptr<int_channel> ch) {
    std::vector<int> got;
    try {
        for (;;) got.push_back(co_await ch->async_receive(use_awaitable));
    } catch (const asio::system_error& e) {
        check(e.code() == asio::experimental::error::channel_closed, "channel_closed");
    }
    co_return got;
}

// --- exceptions ----------------------------------------------------------------------------------

static awaitable<int> thrower(int n) {
    for (int i = 0; i < n; ++i) co_await asio::post(co_await asio::this_coro::executor, use_awaitable);
    throw std::logic_error("thrown after " + std::to_string(n) + " posts");
}

static awaitable<void> main_coroutine(asio::thread_pool& pool, strand_type strand) {
    std::printf("== strand: 4 coroutines x 500 rounds\n");
    int done = 0;
    auto completions = std::make_shared<int_channel>(strand, 4);
    for (int id = 0; id < 4; ++id) {
        asio::co_spawn(strand, bump(id, 500), [completions](std::exception_ptr e, int who) {
            completions->try_send(asio::error_code{}, e ? -1 : who);
        });
    }
    for (int i = 0; i < 4; ++i) {
        int who = co_await completions->async_receive(use_awaitable);
        check(who >= 0, "bump threw");
        ++done;
    }
    std::printf("counter %ld after %d coroutines\n", plain_counter, done);
    check(plain_counter == 4000, "plain counter exact");

    std::printf("== ping-pong\n");
    int_channel ping(strand), pong(strand);
    auto handled = std::make_shared<int_channel>(strand, 1);
    asio::co_spawn(strand, ponger(ping, pong), [handled](std::exception_ptr e, int n) {
        handled->try_send(asio::error_code{}, e ? -1 : n);
    });
    co_await pinger(ping, pong, 4);
    int n = co_await handled->async_receive(use_awaitable);
    std::printf("ponger handled %d\n", n);
    check(n == 4, "ponger count");

    std::printf("== buffered channel\n");
    auto ch = std::make_shared<int_channel>(strand, 3);
    asio::co_spawn(strand, producer(ch, 7), asio::detached);
    std::vector<int> got = co_await consumer(ch);
    std::printf("consumer got");
    for (int v : got) std::printf(" %d", v);
    std::printf("\n");
    check(got.size() == 7, "seven values");

    std::printf("== exception on the pool\n");
    auto error = std::make_shared<int_channel>(strand, 1);
    asio::co_spawn(pool.get_executor(), thrower(5),
                   asio::bind_executor(strand, [error](std::exception_ptr e, int) {
                       try {
                           if (e) std::rethrow_exception(e);
                       } catch (const std::logic_error& x) {
                           std::printf("handler on strand caught '%s'\n", x.what());
                       }
                       error->try_send(asio::error_code{}, e ? 1 : 0);
                   }));
    int threw = co_await error->async_receive(use_awaitable);
    check(threw == 1, "thrower threw");
}

// --- several strands ------------------------------------------------------------------------

struct Lane {
    strand_type strand;
    long count = 0;  // only touched on `strand`
};

static std::atomic<long> total{0};

static awaitable<void> lane_work(Lane& lane, int rounds) {
    for (int i = 0; i < rounds; ++i) {
        co_await asio::post(lane.strand, use_awaitable);
        ++lane.count;
        total.fetch_add(1, std::memory_order_relaxed);
    }
}

int main() {
    asio::thread_pool pool(2);
    strand_type strand = asio::make_strand(pool);
    bool finished = false;
    asio::co_spawn(strand, main_coroutine(pool, strand), [&](std::exception_ptr e) {
        if (e) {
            std::printf("main_coroutine threw\n");
            ++failures;
        }
        finished = true;
    });

    std::vector<std::unique_ptr<Lane>> lanes;
    for (int l = 0; l < 3; ++l) {
        lanes.push_back(std::make_unique<Lane>(Lane{asio::make_strand(pool)}));
        for (int k = 0; k < 3; ++k) asio::co_spawn(lanes.back()->strand, lane_work(*lanes.back(), 200), asio::detached);
    }
    pool.join();
    check(finished, "main coroutine finished");
    std::printf("== lanes\n");
    for (auto& lane : lanes) std::printf("lane count %ld\n", lane->count);
    std::printf("total %ld\n", total.load());
    check(total.load() == 1800, "total");
    for (auto& lane : lanes) check(lane->count == 600, "lane count");
    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
