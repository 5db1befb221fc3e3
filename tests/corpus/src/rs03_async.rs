// async fn / async blocks driven by a tiny hand-written executor: a
// RawWaker vtable, Context, Pin, a task queue, a hand-written Future with
// Poll::Pending, join of several futures, and async recursion via Box::pin.
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};

static WAKES: AtomicUsize = AtomicUsize::new(0);

fn vt_clone(p: *const ()) -> RawWaker {
    unsafe { Arc::increment_strong_count(p as *const AtomicUsize) };
    RawWaker::new(p, &VTABLE)
}
fn vt_wake(p: *const ()) {
    vt_wake_by_ref(p);
    vt_drop(p);
}
fn vt_wake_by_ref(p: *const ()) {
    let flag = unsafe { &*(p as *const AtomicUsize) };
    flag.fetch_add(1, Ordering::SeqCst);
    WAKES.fetch_add(1, Ordering::Relaxed);
}
fn vt_drop(p: *const ()) {
    unsafe { drop(Arc::from_raw(p as *const AtomicUsize)) };
}
static VTABLE: RawWakerVTable = RawWakerVTable::new(vt_clone, vt_wake, vt_wake_by_ref, vt_drop);

fn make_waker(flag: &Arc<AtomicUsize>) -> Waker {
    let p = Arc::into_raw(flag.clone()) as *const ();
    unsafe { Waker::from_raw(RawWaker::new(p, &VTABLE)) }
}

/// Yields `Pending` a fixed number of times before completing.
pub struct YieldNow {
    remaining: u32,
}

impl Future for YieldNow {
    type Output = u32;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<u32> {
        if self.remaining == 0 {
            Poll::Ready(7)
        } else {
            self.remaining -= 1;
            cx.waker().wake_by_ref();
            Poll::Pending
        }
    }
}

pub fn yield_now(n: u32) -> YieldNow {
    YieldNow { remaining: n }
}

type Task = Pin<Box<dyn Future<Output = ()>>>;

pub struct Executor {
    queue: VecDeque<Task>,
}

impl Executor {
    pub fn new() -> Self {
        Executor { queue: VecDeque::new() }
    }
    pub fn spawn(&mut self, f: impl Future<Output = ()> + 'static) {
        self.queue.push_back(Box::pin(f));
    }
    pub fn run(&mut self) -> usize {
        let flag = Arc::new(AtomicUsize::new(0));
        let waker = make_waker(&flag);
        let mut cx = Context::from_waker(&waker);
        let mut polls = 0;
        while let Some(mut t) = self.queue.pop_front() {
            polls += 1;
            if t.as_mut().poll(&mut cx).is_pending() {
                self.queue.push_back(t);
            }
        }
        polls
    }
}

pub fn block_on<F: Future>(f: F) -> F::Output {
    let flag = Arc::new(AtomicUsize::new(0));
    let waker = make_waker(&flag);
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

async fn add_later(a: u64, b: u64) -> u64 {
    yield_now(2).await;
    a + b
}

async fn sum_series(n: u64) -> u64 {
    let mut total = 0;
    for i in 0..n {
        total += add_later(i, 1).await;
    }
    total
}

fn fib(n: u32) -> Pin<Box<dyn Future<Output = u64>>> {
    Box::pin(async move {
        if n < 2 {
            n as u64
        } else {
            let a = fib(n - 1).await;
            yield_now(1).await;
            a + fib(n - 2).await
        }
    })
}

async fn with_drop_across_await(log: Rc<RefCell<Vec<String>>>) -> usize {
    let held = String::from("held across await");
    let k = yield_now(3).await;
    log.borrow_mut().push(format!("{held} {k}"));
    held.len()
}

async fn may_fail(x: i32) -> Result<i32, String> {
    yield_now(1).await;
    if x < 0 { Err(format!("negative {x}")) } else { Ok(x * 2) }
}

async fn try_chain() -> Result<i32, String> {
    let a = may_fail(3).await?;
    let b = may_fail(a).await?;
    let c = may_fail(-b).await?;
    Ok(c)
}

pub fn run() -> (u64, u64, usize, usize, String, usize) {
    let log = Rc::new(RefCell::new(Vec::new()));
    let s = block_on(sum_series(10));
    let f = block_on(fib(12));
    let mut ex = Executor::new();
    for id in 0..3u32 {
        let log = log.clone();
        ex.spawn(async move {
            let v = yield_now(id).await;
            log.borrow_mut().push(format!("task {id} got {v}"));
        });
    }
    let log2 = log.clone();
    ex.spawn(async move {
        let n = with_drop_across_await(log2.clone()).await;
        log2.borrow_mut().push(format!("len {n}"));
    });
    let polls = ex.run();
    let err = block_on(try_chain()).unwrap_err();
    let entries = log.borrow().len();
    (s, f, polls, entries, err, WAKES.load(Ordering::Relaxed))
}
