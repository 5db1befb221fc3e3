// kxs: a Channel between two suspend functions. The consumer receives into a plain local
// (`item`) whose address it passes to receive(): the local must stay at the same address across
// the suspend (the channel writes through the pointer while the consumer is suspended). It
// suspends inside a try block; the channel's closing is delivered as a failure resumed into that
// suspend point and caught there.
#include "kotlinx/coroutines/dsl/Suspend.hpp"

#include <cstdio>
#include <string>
#include <vector>

using namespace kotlinx::coroutines;

class Consumer : public ContinuationImpl {
    Channel<std::string>* channel_;

public:
    Consumer(Continuation* completion, Channel<std::string>* channel) : ContinuationImpl(completion), channel_(channel) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        std::string item;
        std::vector<std::string> all;
        for (;;) {
            try {
                coroutine_yield(this, channel_->receive(this, &item));
            } catch (const ClosedReceiveChannelException& e) {
                std::printf("consumer: %s after %zu items\n", e.what(), all.size());
                break;
            }
            std::printf("consumer: got %s\n", item.c_str());
            all.push_back(item);
        }
        std::string joined;
        for (const std::string& s : all) joined += s + ";";
        std::printf("consumer: %s\n", joined.c_str());
        coroutine_return(this, box_int(static_cast<std::intptr_t>(all.size())));
    }
};

class Producer : public ContinuationImpl {
    Channel<std::string>* channel_;
    int count_;

public:
    Producer(Continuation* completion, Channel<std::string>* channel, int count)
        : ContinuationImpl(completion), channel_(channel), count_(count) {}

    void* invoke_suspend(Result<void*> result) override {
        coroutine_begin(this);
        for (int i = 0; i < count_; ++i) {
            std::string message = "message-number-" + std::to_string(i);
            channel_->send(message);
            std::printf("producer: sent %s\n", message.c_str());
            if (i % 2 == 1) coroutine_yield(this, yield_now(this));
        }
        coroutine_yield(this, yield_now(this));
        channel_->close();
        std::printf("producer: closed\n");
        coroutine_end(this);
    }
};

int main() {
    EventLoop loop;
    Channel<std::string> channel(loop);
    ResultHolder consumer_done, producer_done;
    loop.launch<Consumer>(&consumer_done, &channel);
    loop.launch<Producer>(&producer_done, &channel, 5);
    std::size_t n = loop.run();
    std::printf("ran %zu, consumer=%ld producer done=%d\n", n,
                static_cast<long>(unbox_int(consumer_done.result().get_or_throw())), producer_done.done() ? 1 : 0);
    return 0;
}

// EXPECT:
// producer: sent message-number-0
// producer: sent message-number-1
// consumer: got message-number-0
// consumer: got message-number-1
// producer: sent message-number-2
// producer: sent message-number-3
// consumer: got message-number-2
// consumer: got message-number-3
// producer: sent message-number-4
// consumer: got message-number-4
// producer: closed
// consumer: channel was closed after 5 items
// consumer: message-number-0;message-number-1;message-number-2;message-number-3;message-number-4;
// ran 9, consumer=5 producer done=1
