// Scratch timing harness (not committed): times Module::parse (the index) on a file.
fn cpu_ms() -> f64 {
    let st = std::fs::read_to_string("/proc/self/stat").unwrap();
    let f: Vec<&str> = st.rsplit(')').next().unwrap().split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) * 10.0
}
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let runs: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(7);
    let src = std::fs::read_to_string(&path).expect("read");
    let mut times = Vec::new();
    let mut cpu = 0.0;
    for _ in 0..runs {
        let s = src.clone();
        let c0 = cpu_ms();
        let t = std::time::Instant::now();
        let m = llir::Module::parse(s).map_err(|(e, _)| e.message).expect("parse");
        times.push(t.elapsed().as_secs_f64() * 1e3);
        cpu += cpu_ms() - c0;
        std::mem::forget(m);
    }
    times.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!(
        "index {} MB: wall median {:.1} ms, min {:.1} ms; cpu {:.1} ms/run",
        src.len() / 1_000_000,
        times[runs / 2],
        times[0],
        cpu / runs as f64
    );
}
