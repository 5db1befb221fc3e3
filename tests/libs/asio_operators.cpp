// asio (Debian libasio-dev 1.22): asio::experimental::awaitable_operators.
//
// - `a && b` (tuple of both results; void operands drop out; three operands),
//   `a || b` (a variant holding the first success; the loser is cancelled and
//   sees asio::error::operation_aborted);
// - an exception in one operand of `&&` cancels the other (which rethrows its
//   cancellation, so the awaiting coroutine gets asio::multiple_exceptions
//   whose first exception is the original one); an exception in one operand of `||` lets the other win;
// - steady_timer waits on absolute deadlines (a stage's start plus multiples
//   of 50 ms), so which operand finishes first is fixed by its deadline.
//
// Output is one line per event; the program exits 0 when every check held.
#include <asio.hpp>
#include <asio/experimental/awaitable_operators.hpp>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <tuple>
#include <variant>

using asio::awaitable;
using asio::use_awaitable;
using namespace asio::experimental::awaitable_operators;
using clock_type = asio::steady_timer::clock_type;

static clock_type::time_point base;
static int failures = 0;

static void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("CHECK FAILED: %s\n", what);
        ++failures;
    }
}

static void stage(const char* name) {
    base = clock_type::now();
    std::printf("== %s\n", name);
}

// Waits until the stage's start + slot * 50 ms; reports cancellation and rethrows it.
static awaitable<void> sleep_until(const std::string& who, int slot) {
    asio::steady_timer timer(co_await asio::this_coro::executor);
    timer.expires_at(base + std::chrono::milliseconds(50 * slot));
    try {
        co_await timer.async_wait(use_awaitable);
    } catch (const asio::system_error& e) {
        std::printf("%s: cancelled (%s)\n", who.c_str(),
                    e.code() == asio::error::operation_aborted ? "operation_aborted" : "other error");
        throw;
    }
}

static awaitable<int> number(std::string who, int slot, int value) {
    co_await sleep_until(who, slot);
    std::printf("%s: %d at slot %d\n", who.c_str(), value, slot);
    co_return value;
}

static awaitable<std::string> text(std::string who, int slot, std::string value) {
    co_await sleep_until(who, slot);
    std::printf("%s: '%s' at slot %d\n", who.c_str(), value.c_str(), slot);
    co_return value;
}

static awaitable<void> nothing(std::string who, int slot) {
    co_await sleep_until(who, slot);
    std::printf("%s: done at slot %d\n", who.c_str(), slot);
}

static awaitable<int> failing(std::string who, int slot) {
    co_await sleep_until(who, slot);
    std::printf("%s: throwing at slot %d\n", who.c_str(), slot);
    throw std::runtime_error(who + " failed");
}

static awaitable<void> run_all() {
    stage("and: int && string");
    auto [n, s] = co_await (number("n", 2, 7) && text("s", 1, "seven"));
    std::printf("and -> (%d, '%s')\n", n, s.c_str());
    check(n == 7 && s == "seven", "and result");

    stage("and: void && int && void");
    int only = co_await (nothing("v1", 3) && number("m", 1, 11) && nothing("v2", 2));
    std::printf("and -> %d\n", only);
    check(only == 11, "and with voids");

    stage("and: three values");
    auto [a, b, c] = co_await (number("a", 3, 1) && number("b", 2, 2) && number("c", 1, 3));
    std::printf("and -> (%d, %d, %d)\n", a, b, c);
    check(a + b + c == 6, "three values");

    stage("or: slow || fast");
    std::variant<int, std::string> v = co_await (number("slow", 5, 5) || text("fast", 1, "fast wins"));
    std::printf("or -> index %zu: '%s'\n", v.index(), v.index() == 1 ? std::get<1>(v).c_str() : "?");
    check(v.index() == 1, "or index");

    stage("or: failing || number");
    std::variant<int, int> w = co_await (failing("f", 1) || number("late", 2, 42));
    std::printf("or -> index %zu: %d\n", w.index(), w.index() == 1 ? std::get<1>(w) : -1);
    check(w.index() == 1 && std::get<1>(w) == 42, "or after failure");

    stage("and: failing && long sleep");
    try {
        auto [x, y] = co_await (failing("g", 1) && number("sleepy", 6, 6));
        std::printf("and -> (%d, %d): not reached\n", x, y);
        check(false, "and must throw");
    } catch (const asio::multiple_exceptions& e) {
        // Both operands failed: g threw, and sleepy rethrew its cancellation.
        std::printf("and threw: multiple exceptions\n");
        try {
            std::rethrow_exception(e.first_exception());
        } catch (const std::runtime_error& first) {
            std::printf("first exception: '%s'\n", first.what());
        }
    }

    // p's cancellation (several handlers after q completes) must come before r's deadline: r is
    // four slots after q, so a slow machine does not reorder them.
    stage("nested: (p || q) && r");
    auto [pq, r] = co_await ((number("p", 8, 4) || number("q", 1, 1)) && number("r", 5, 2));
    std::printf("nested -> (index %zu, %d)\n", pq.index(), r);
    check(pq.index() == 1 && r == 2, "nested");
}

int main() {
    asio::io_context ctx;
    bool finished = false;
    asio::co_spawn(ctx, run_all(), [&](std::exception_ptr e) {
        finished = true;
        if (e) {
            std::printf("run_all failed with an exception\n");
            ++failures;
        }
    });
    ctx.run();
    check(finished, "completion handler ran");
    std::printf("%s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
