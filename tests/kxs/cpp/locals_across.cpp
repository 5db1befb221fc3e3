// kxs: plain locals (int, std::string, std::vector<int>, and a std::string scoped in the loop
// body) change across suspends and keep their values; two instances of the same suspend function
// interleave on the event loop, each with its own frame; two yields on one source line.
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <cstdio>
#include <string>
#include <vector>

using namespace kotlinx::coroutines;

static std::string join(const std::vector<int>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) s += ',';
        s += std::to_string(v[i]);
    }
    return s + "]";
}

class Walker : public ContinuationImpl {
    const char* name_;
    char first_;
    int rounds_;

public:
    Walker(Continuation* completion, const char* name, char first, int rounds)
        : ContinuationImpl(completion), name_(name), first_(first), rounds_(rounds) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        int counter = 0;
        std::string text(1, first_);
        std::vector<int> squares;
        for (int i = 0; i < rounds_; ++i) {
            std::string step = "s" + std::to_string(i);
            counter += i;
            text += static_cast<char>(first_ + 1 + i);
            squares.push_back(i * i);
            coroutine_yield(this, yield_now(this));
            std::printf("%s i=%d after 1: counter=%d text=%s squares=%s step=%s\n", name_, i, counter, text.c_str(),
                        join(squares).c_str(), step.c_str());
            counter *= 2;
            coroutine_yield(this, yield_now(this)); coroutine_yield(this, yield_now(this));
            step += "!";
            std::printf("%s i=%d after 3: counter=%d text=%s step=%s\n", name_, i, counter, text.c_str(), step.c_str());
        }
        std::printf("%s end: counter=%d text=%s squares=%zu\n", name_, counter, text.c_str(), squares.size());
        coroutine_end(this);
    }
};

int main() {
    EventLoop loop;
    ResultHolder done_a, done_b;
    loop.launch<Walker>(&done_a, "A", 'a', 3);
    loop.launch<Walker>(&done_b, "B", 'p', 2);
    std::size_t n = loop.run();
    std::printf("resumptions=%zu done_a=%d done_b=%d\n", n, done_a.done() ? 1 : 0, done_b.done() ? 1 : 0);
    return 0;
}

// EXPECT:
// A i=0 after 1: counter=0 text=ab squares=[0] step=s0
// B i=0 after 1: counter=0 text=pq squares=[0] step=s0
// A i=0 after 3: counter=0 text=ab step=s0!
// B i=0 after 3: counter=0 text=pq step=s0!
// A i=1 after 1: counter=1 text=abc squares=[0,1] step=s1
// B i=1 after 1: counter=1 text=pqr squares=[0,1] step=s1
// A i=1 after 3: counter=2 text=abc step=s1!
// B i=1 after 3: counter=2 text=pqr step=s1!
// B end: counter=2 text=pqr squares=2
// A i=2 after 1: counter=4 text=abcd squares=[0,1,4] step=s2
// A i=2 after 3: counter=8 text=abcd step=s2!
// A end: counter=8 text=abcd squares=3
// resumptions=17 done_a=1 done_b=1
