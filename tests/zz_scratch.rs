use xpbd_cloth::cloth::Cloth;
use xpbd_cloth::params::Value;
fn run(opts: &[(&str, Value)]) {
    let mut c = Cloth::from_preset("cloth", opts).unwrap();
    c.steps(500).unwrap();
    println!(
        "{:?}: max stretch {:.3}",
        opts.iter()
            .map(|(n, v)| format!("{n}={}", v.shown()))
            .collect::<Vec<_>>(),
        c.max_stretch()
    );
}
#[test]
fn scratch() {
    let vd = ("velocityDamping", Value::Number(1.5));
    run(&[vd]);
    run(&[vd, ("stiffness", Value::Number(1e5))]);
    run(&[
        vd,
        ("stiffness", Value::Number(1e5)),
        ("mass", Value::Number(0.05)),
    ]);
    run(&[
        vd,
        ("stiffness", Value::Number(1e5)),
        ("tethers", Value::Flag(true)),
    ]);
    run(&[
        vd,
        ("stiffness", Value::Number(1e5)),
        ("mass", Value::Number(0.05)),
        ("tethers", Value::Flag(true)),
    ]);
    run(&[
        vd,
        ("stiffness", Value::Number(1e5)),
        ("mass", Value::Number(0.05)),
        ("iterations", Value::Number(10.0)),
    ]);
    run(&[
        vd,
        ("stiffness", Value::Number(1e5)),
        ("mass", Value::Number(0.05)),
        ("substeps", Value::Number(4.0)),
    ]);
}
