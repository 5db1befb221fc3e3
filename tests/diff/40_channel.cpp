// Producer/consumer coroutines communicating through channels: an
// unbuffered (rendezvous) channel and a bounded buffered channel with
// several producers and consumers, driven by a small run queue; close()
// wakes up pending receivers.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

struct runq {
  std::coroutine_handle<> q[256];
  int head = 0, n = 0;
  void push(std::coroutine_handle<> h) {
    if (n == 256) std::terminate();
    q[(head + n++) % 256] = h;
  }
  void run() {
    while (n) {
      auto h = q[head];
      head = (head + 1) % 256;
      --n;
      h.resume();
    }
  }
};
static runq rq;

struct proc {
  struct promise_type {
    proc get_return_object() noexcept {
      rq.push(std::coroutine_handle<promise_type>::from_promise(*this));
      return {};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };
};

// Bounded channel of ints; capacity 0 is not supported, use 1 for
// near-rendezvous behaviour. recv() returns false once closed and drained.
template <int Cap>
class channel {
public:
  struct send_awaiter {
    channel& c;
    int v;
    bool await_ready() {
      if (c.size_ < Cap && c.nsend_ == 0) {
        c.put(v);
        return true;
      }
      return false;
    }
    void await_suspend(std::coroutine_handle<> h) {
      c.senders_[c.nsend_] = h;
      c.pending_[c.nsend_] = v;
      ++c.nsend_;
    }
    void await_resume() const noexcept {}
  };
  struct recv_awaiter {
    channel& c;
    int* out;
    bool ok = true;
    bool await_ready() {
      if (c.size_ > 0) {
        *out = c.take();
        return true;
      }
      if (c.closed_) {
        ok = false;
        return true;
      }
      return false;
    }
    void await_suspend(std::coroutine_handle<> h) {
      c.receivers_[c.nrecv_] = h;
      c.outs_[c.nrecv_] = out;
      c.oks_[c.nrecv_] = &ok;
      ++c.nrecv_;
    }
    bool await_resume() const noexcept { return ok; }
  };
  send_awaiter send(int v) { return {*this, v}; }
  recv_awaiter recv(int* out) { return {*this, out}; }
  void close() {
    closed_ = true;
    while (nrecv_ > 0) {
      *oks_[0] = false;
      rq.push(receivers_[0]);
      shift_receivers();
    }
  }

private:
  void put(int v) {
    if (nrecv_ > 0) {  // hand directly to a waiting receiver
      *outs_[0] = v;
      rq.push(receivers_[0]);
      shift_receivers();
      return;
    }
    buf_[(head_ + size_) % Cap] = v;
    ++size_;
  }
  int take() {
    int v = buf_[head_];
    head_ = (head_ + 1) % Cap;
    --size_;
    if (nsend_ > 0) {  // room freed: accept a blocked sender's value
      buf_[(head_ + size_) % Cap] = pending_[0];
      ++size_;
      rq.push(senders_[0]);
      for (int i = 1; i < nsend_; ++i) {
        senders_[i - 1] = senders_[i];
        pending_[i - 1] = pending_[i];
      }
      --nsend_;
    }
    return v;
  }
  void shift_receivers() {
    for (int i = 1; i < nrecv_; ++i) {
      receivers_[i - 1] = receivers_[i];
      outs_[i - 1] = outs_[i];
      oks_[i - 1] = oks_[i];
    }
    --nrecv_;
  }
  int buf_[Cap];
  int head_ = 0, size_ = 0;
  bool closed_ = false;
  std::coroutine_handle<> senders_[16];
  int pending_[16];
  int nsend_ = 0;
  std::coroutine_handle<> receivers_[16];
  int* outs_[16];
  bool* oks_[16];
  int nrecv_ = 0;
};

static long consumed_sum[4];
static int consumed_cnt[4];
static int producers_left = 0;

template <int Cap>
proc producer(channel<Cap>& ch, int id, int count) {
  for (int i = 0; i < count; ++i) co_await ch.send(id * 1000 + i);
  printf("producer %d done\n", id);
  if (--producers_left == 0) ch.close();
}

template <int Cap>
proc consumer(channel<Cap>& ch, int id) {
  int v = 0;
  while (co_await ch.recv(&v)) {
    consumed_sum[id] += v;
    ++consumed_cnt[id];
  }
  printf("consumer %d saw close after %d items\n", id, consumed_cnt[id]);
}

// Pipeline: squares numbers from one channel into another.
proc stage(channel<1>& in, channel<1>& out) {
  int v = 0;
  while (co_await in.recv(&v)) co_await out.send(v * v);
  out.close();
}
proc source(channel<1>& out, int n) {
  for (int i = 1; i <= n; ++i) co_await out.send(i);
  out.close();
}
proc sink(channel<1>& in, long* result) {
  int v = 0;
  while (co_await in.recv(&v)) *result += v;
}

int main() {
  {
    channel<3> ch;
    producers_left = 3;
    consumer(ch, 0);
    consumer(ch, 1);
    for (int p = 1; p <= 3; ++p) producer(ch, p, 10 + p);
    consumer(ch, 2);
    rq.run();
    long s = 0;
    int c = 0;
    for (int i = 0; i < 3; ++i) {
      printf("consumer %d: count=%d sum=%ld\n", i, consumed_cnt[i], consumed_sum[i]);
      s += consumed_sum[i];
      c += consumed_cnt[i];
    }
    printf("total items=%d sum=%ld\n", c, s);
  }
  {
    channel<1> a, b;
    long result = 0;
    sink(b, &result);
    stage(a, b);
    source(a, 20);
    rq.run();
    printf("pipeline sum of squares 1..20 = %ld\n", result);
  }
  return 0;
}
