use super::*;
use crate::player::Go;

#[test]
fn specs_parse_and_print_canonically() {
    let cases = [
        ("ab", "ab:depth=4,hash=16"),
        ("ab:depth=4", "ab:depth=4,hash=16"),
        ("ab:nodes=200000", "ab:nodes=200000,hash=16"),
        ("ab:time=0.5", "ab:time=0.5,hash=16"),
        ("ab:depth=3,values=w.toml,hash=32", "ab:depth=3,hash=32,values=w.toml"),
        ("ab:depth=6, keep=1", "ab:depth=6,hash=16,keep=1"),
        ("ab:time=0.5,threads=2", "ab:time=0.5,hash=16,threads=2"),
        ("ab:depth=2,eval=hand", "ab:depth=2,hash=16"),
        ("ab:depth=2,eval=nnue", "ab:depth=2,hash=16,eval=nnue"),
        ("ab:eval=auto", "ab:depth=4,hash=16,eval=auto"),
        ("ab:eval=nnue:nets/x.nnue,time=1", "ab:time=1,hash=16,eval=nnue:nets/x.nnue"),
        ("random", "random:seed=0"),
        ("random:seed=7", "random:seed=7"),
        ("mcts", "mcts:uniform,sims=800"),
        ("mcts:uniform,sims=800", "mcts:uniform,sims=800"),
        ("mcts:ab,sims=64", "mcts:ab,sims=64"),
        ("mcts:net=nets/a.pt,sims=64", "mcts:net=nets/a.pt,sims=64"),
        ("mcts:ab,time=0.5", "mcts:ab,time=0.5"),
        ("mcts:sims=64,ab,kind=gumbel,batch=8,cpuct=2,seed=3", "mcts:ab,sims=64,kind=gumbel,batch=8,cpuct=2,seed=3"),
        ("mcts:ab,m=32,sims=64,kind=gumbel", "mcts:ab,sims=64,kind=gumbel,m=32"),
        ("mcts:ab,nnue=1,sims=64", "mcts:ab,sims=64,nnue=1"),
        ("mcts:ab,sims=64,qs=1,nnue=0.5:nets/x.nnue", "mcts:ab,sims=64,qs=1,nnue=0.5:nets/x.nnue"),
        ("mcts:ab,mate=1,sims=8", "mcts:ab,sims=8,mate=1"),
        ("mcts:ab,sims=8,mate=0", "mcts:ab,sims=8"),
        ("mcts:ab,leafdepth=1,nnue=1,sims=8,mate=1", "mcts:ab,sims=8,nnue=1,leafdepth=1,mate=1"),
        ("mcts:ab,nnue=1,leafdepth=0,sims=8", "mcts:ab,sims=8,nnue=1"),
        ("mcts:hand=0.5,leafdepth=1,sims=8", "mcts:uniform,sims=8,leafdepth=1,hand=0.5"),
    ];
    for (input, canonical) in cases {
        let spec: PlayerSpec = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
        assert_eq!(spec.to_string(), canonical, "{input}");
        assert_eq!(canonical.parse::<PlayerSpec>().unwrap(), spec, "{input} round trip");
    }
}

#[test]
fn clocked_specs_keep_only_the_limits_they_name_and_go_caps_them() {
    let unlimited = |s: &str| PlayerSpec::parse_unlimited(s).unwrap().to_string();
    assert_eq!(unlimited("ab"), "ab:hash=16");
    assert_eq!(unlimited("ab:depth=6,threads=2"), "ab:depth=6,hash=16,threads=2");
    assert_eq!(unlimited("mcts:ab"), "mcts:ab");
    assert_eq!(unlimited("mcts:ab,sims=64"), "mcts:ab,sims=64");
    assert_eq!(unlimited("random:seed=3"), "random:seed=3");
    let spec = "uci:./engine --x a,b;Hash=8;movetime=0.5";
    assert_eq!(unlimited(spec), spec);
    // A request's limits cap the player's own; a clock gives a soft and a hard time.
    let own: Limits = Limits { depth: Some(6), ..Limits::default() };
    let clock = crate::player::clock::Clock {
        remaining: [Duration::from_secs(10); 2],
        increment: [Duration::ZERO; 2],
        moves_to_go: None,
    };
    let go = Go { depth: Some(9), nodes: Some(500), clock: Some(clock), ..Go::default() };
    let l = go.limits_over(&own, crate::game::Color::White);
    assert_eq!((l.depth, l.nodes), (Some(6), Some(500)));
    assert!(l.soft_time.unwrap() < l.time.unwrap() && l.time.unwrap() < Duration::from_secs(8));
    let l = Go { infinite: true, ..go }.limits_over(&own, crate::game::Color::White);
    assert_eq!(l, Limits::default());
}

#[test]
fn bad_specs_list_what_is_accepted() {
    for bad in [
        "mcts:foo",
        "mcts:sims=0",
        "mcts:kind=gumbel,time=1",
        "mcts:ab,uniform",
        "mcts:batch=0",
        "mcts:m=0",
        "mcts:m=2000",
        "mcts:net=",
        "mcts:nnue=2",
        "mcts:nnue=-0.5",
        "mcts:nnue=x",
        "mcts:nnue=1:",
        "mcts:mate=2",
        "mcts:nnue=1,leafdepth=4",
        "mcts:nnue=1,leafdepth=-1",
        "mcts:leafdepth=1",
        "alphazero",
        "ab:depth=x",
        "ab:depth",
        "ab:colour=red",
        "random:seed=-1",
        "ab:time=0",
        "ab:hash=0",
        "ab:nodes=0",
        "ab:nodes=1000000000001",
        "ab:keep=2",
        "ab:threads=0",
        "ab:threads=257",
        "ab:eval=nn",
        "ab:eval=nnue:",
        "ab:depth=3,depth=4",
        "mcts:sims=10,sims=20",
        "random:seed=1,seed=2",
        "",
    ] {
        let e = bad.parse::<PlayerSpec>().unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("accepted player specs") && msg.contains("random:seed=7"), "{bad}: {msg}");
    }
    // The reason names the unknown kind, or the kind's form for a bare word.
    let reason = |spec: &str| spec.parse::<PlayerSpec>().unwrap_err().reason;
    assert_eq!(reason("frob:x"), "unknown player kind 'frob'");
    assert_eq!(
        reason("random:100000"),
        "'100000' is not KEY=VALUE (the form is random[:seed=N], N in 0..=18446744073709551615)"
    );
    assert_eq!(reason("random:seed=-1"), "seed=-1: expected a whole number in 0..=18446744073709551615");
    assert_eq!(reason("ab:4"), "'4' is not KEY=VALUE (the form is ab[:KEY=VALUE,...])");
    let missing = PlayerSpec::AlphaBeta(AlphaBetaSpec {
        values: Some("/nonexistent/values.toml".into()),
        ..AlphaBetaSpec::default()
    });
    assert!(missing.build().is_err());
    // An NNUE leaf network that is not there: one line naming the file, before any game.
    let e = "mcts:ab,nnue=1:/nonexistent/leaf.nnue".parse::<PlayerSpec>().unwrap().build().err().unwrap();
    let msg = e.to_string();
    assert!(msg.contains("/nonexistent/leaf.nnue") && !msg.contains('\n'), "{msg}");
}

#[test]
fn spec_errors_name_the_problem_and_cut_long_input() {
    let reason = |s: &str| s.parse::<PlayerSpec>().unwrap_err().reason;
    assert_eq!(reason("ab:nodes=0"), "nodes=0: expected 1..=1000000000000");
    assert_eq!(reason("ab:depth=3,depth=4"), "key 'depth' is given twice");
    assert_eq!(reason("mcts:net="), "net=: expected a network directory, e.g. net=nets/fiveup-az");
    let long = format!("ab:{}", "x".repeat(10_000));
    let msg = long.parse::<PlayerSpec>().unwrap_err().to_string();
    let first = msg.lines().next().unwrap();
    assert!(first.contains("… (10003 characters)") && first.chars().count() < 340, "{first}");
    // The accepted forms are on their own lines, and their network example is a directory.
    assert!(msg.lines().count() > 5 && !msg.contains("model.pt") && msg.contains("net=nets/fiveup-az"), "{msg}");
    // The help of every whole-number key shows the range its table checks (10^k for large
    // powers of ten), and every line of the accepted forms fits.
    fn shows_ranges<S>(keys: &[Key<S>]) {
        let show = |n: u64| match n.ilog10() {
            k if k >= 6 && 10u64.pow(k) == n => format!("10^{k}"),
            _ => n.to_string(),
        };
        for key in keys {
            if let Value::Whole { range, .. } = &key.value {
                if *range.end() != u64::MAX {
                    let want = format!("{}={}..={}", key.names[0], range.start(), show(*range.end()));
                    assert!(key.help.starts_with(&want), "{}: {want}", key.help);
                }
            }
        }
    }
    shows_ranges(ALPHA_BETA.keys);
    shows_ranges(RANDOM.keys);
    shows_ranges(MCTS.keys);
    assert!(accepted().lines().all(|l| l.chars().count() <= HELP_WIDTH), "{}", accepted());
}
