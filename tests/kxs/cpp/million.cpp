// kxs: 1,000,000 suspend/resume cycles through the event loop, with an int, a heap-allocated
// std::string and a 64-bit checksum live across every suspend. Runs under valgrind: the spill
// frame, the string and the call-owned continuation must all be freed.
// VALGRIND
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

using namespace kotlinx::coroutines;

class Million : public ContinuationImpl {
    int n_;

public:
    Million(Continuation* completion, int n) : ContinuationImpl(completion), n_(n) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        int counter = 0;
        std::string text = "kxs-million-heap-str";  // 20 chars: longer than the small-string buffer
        std::uint64_t checksum = 0;
        for (int i = 0; i < n_; ++i) {
            counter += i % 7;
            text[static_cast<std::size_t>(i) % text.size()] = static_cast<char>('a' + i % 26);
            coroutine_yield(this, yield_now(this));
            checksum = checksum * 31 + static_cast<std::uint64_t>(counter) +
                       static_cast<unsigned char>(text[static_cast<std::size_t>(i) * 7 % text.size()]);
        }
        std::printf("counter=%d text=%s checksum=%llu\n", counter, text.c_str(),
                    static_cast<unsigned long long>(checksum));
        coroutine_return(this, box_int(counter));
    }
};

int main() {
    EventLoop loop;
    ResultHolder done;
    loop.launch<Million>(&done, 1000000);
    std::size_t n = loop.run();
    std::printf("resumptions=%zu result=%ld\n", n, static_cast<long>(unbox_int(done.result().get_or_throw())));
    return 0;
}

// (The checksum below was computed by an independent loop doing the same arithmetic mod 2^64.)

// EXPECT:
// counter=2999997 text=uvwxyzabcdefghijklmn checksum=3594904052179623356
// resumptions=1000001 result=2999997
