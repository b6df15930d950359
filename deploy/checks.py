#!/usr/bin/env python3
"""Checks of deploy/ that a schema cannot make; run by scripts/check-deploy.sh (in its venv, which
has PyYAML). Each subcommand prints what is wrong and exits 1, or exits 0 silently.

  checks.py config COPY ORIGINAL          COPY is byte-identical to ORIGINAL and parses as TOML
  checks.py manifests NAME RENDERED       the rendered overlay NAME (cpu, gpu, or games: the game
                                          workers of deploy/kubernetes/games) is wired together
  checks.py sbatch FILE                   FILE's #SBATCH directives are where sbatch reads them
  checks.py dockerfile DOCKERFILE         the Dockerfile names the paths the build really uses
"""

import re
import sys
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
SECRET_EXAMPLE = ROOT / "deploy/kubernetes/secret.example.yaml"
TRAINING_BASE = ROOT / "deploy/kubernetes/base"
DOCKERFILE = ROOT / "deploy/Dockerfile"
# Worker names the CLI accepts: letters, digits, '_' and '-'.
WORKER_NAME = re.compile(r"^[A-Za-z0-9_-]+$")
# Flags of the workers' command lines that take no value.
SWITCHES = {"--stay"}


def fail(errors):
    for e in errors:
        print(f"  - {e}")
    sys.exit(1 if errors else 0)


def check_config(copy, original):
    errors = []
    a, b = Path(copy).read_bytes(), Path(original).read_bytes()
    if a != b:
        errors.append(f"{copy} differs from {original}: copy it again (cp {original} {copy})")
    try:
        tomllib.loads(a.decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        errors.append(f"{copy}: not valid TOML: {e}")
    fail(errors)


def dockerfile_user():
    m = re.search(r"^USER\s+(\d+)(?::(\d+))?\s*$", DOCKERFILE.read_text(), re.M)
    return (int(m.group(1)), int(m.group(2) or m.group(1))) if m else None


def parse_args(args, n):
    """The flags of a container's args after its n subcommand words: {flag: value, switch: True}.
    A flag without its value maps to None."""
    flags, rest = {}, list(args[n:])
    while rest:
        flag = rest.pop(0)
        if flag in SWITCHES:
            flags[flag] = True
        else:
            flags[flag] = rest.pop(0) if rest else None
    return flags


def training_components():
    """The app.kubernetes.io/component labels of the training run's pods (base/), which the game
    workers' selector must not share."""
    found = set()
    for f in sorted(TRAINING_BASE.glob("*.yaml")):
        for d in yaml.safe_load_all(f.read_text()):
            labels = ((((d or {}).get("spec") or {}).get("template") or {}).get("metadata") or {}).get("labels") or {}
            if "app.kubernetes.io/component" in labels:
                found.add(labels["app.kubernetes.io/component"])
    return found


def check_manifests(name, rendered):
    docs = [d for d in yaml.safe_load_all(Path(rendered).read_text()) if d]
    errors = []
    by_kind = {}
    for d in docs:
        by_kind.setdefault(d.get("kind"), []).append(d)
    configmaps = {d["metadata"]["name"]: d for d in by_kind.get("ConfigMap", [])}
    secret_name = yaml.safe_load(SECRET_EXAMPLE.read_text())["metadata"]["name"]

    if by_kind.get("Secret"):
        errors.append("renders a Secret: credentials must not come from git (secret.example.yaml stays out)")
    namespaces = {d["metadata"].get("namespace") for d in docs if d["kind"] != "Namespace"}
    if len(namespaces) != 1 or None in namespaces:
        errors.append(f"objects are not all in one namespace: {sorted(map(str, namespaces))}")
    example_ns = yaml.safe_load(SECRET_EXAMPLE.read_text())["metadata"].get("namespace")
    if namespaces and example_ns not in namespaces:
        errors.append(f"secret.example.yaml's namespace {example_ns!r} is not the manifests' {sorted(map(str, namespaces))}")

    jobs = [d for d in by_kind.get("Job", []) if d["metadata"]["name"] == "fiveup-trainer"]
    deps = [d for d in by_kind.get("Deployment", []) if d["metadata"]["name"] == "fiveup-worker"]
    games = [d for d in by_kind.get("Deployment", []) if d["metadata"]["name"] == "fiveup-games-worker"]
    if name == "games":
        if by_kind.get("Job") or jobs or deps:
            errors.append("the game workers render a trainer or training workers: they are deployed on their own")
        if by_kind.get("Namespace"):
            errors.append("renders a Namespace: `kubectl delete -k` would delete the training run's namespace too")
        if len(games) != 1:
            errors.append("expected one Deployment fiveup-games-worker")
    else:
        if len(jobs) != 1:
            errors.append("expected one Job fiveup-trainer")
        if len(deps) != 1:
            errors.append("expected one Deployment fiveup-worker")
        if games:
            errors.append("the training overlay renders the game workers (deploy/kubernetes/games is separate)")
    user = dockerfile_user()

    def deployment_checks(what, dep):
        replicas = dep["spec"].get("replicas", 1)
        if not isinstance(replicas, int) or replicas < 1:
            errors.append(f"{what}: replicas {replicas!r} is not a whole number >= 1")
        sel = dep["spec"]["selector"].get("matchLabels", {})
        labels = dep["spec"]["template"]["metadata"].get("labels", {})
        if not sel or any(labels.get(k) != v for k, v in sel.items()):
            errors.append(f"{what}: the selector does not match the pod template's labels")
        return sel

    def worker_name_checks(what, flags, env, flag):
        if flags.get(flag) != "$(WORKER_NAME)":
            errors.append(f"{what}: no `{flag} $(WORKER_NAME)`")
        field = env.get("WORKER_NAME", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
        if field != "metadata.name":
            errors.append(f"{what}: WORKER_NAME does not come from the pod name (metadata.name)")

    def pod_checks(what, pod, container_name, role):
        spec = pod["spec"]
        volumes = {v["name"]: v for v in spec.get("volumes", [])}
        psc = spec.get("securityContext", {})
        if psc.get("runAsNonRoot") is not True:
            errors.append(f"{what}: pod securityContext.runAsNonRoot is not true")
        if user and (psc.get("runAsUser"), psc.get("runAsGroup")) != user:
            errors.append(f"{what}: runAsUser/runAsGroup {psc.get('runAsUser')}/{psc.get('runAsGroup')} "
                          f"differ from the Dockerfile's USER {user[0]}:{user[1]}")
        containers = {c["name"]: c for c in spec.get("containers", [])}
        c = containers.get(container_name)
        if c is None:
            errors.append(f"{what}: no container {container_name}")
            return None
        image = c.get("image", "")
        if "/" not in image or ":" not in image.rsplit("/", 1)[-1]:
            errors.append(f"{what}: image {image!r} is not a registry/name:tag (is `images:` set in the overlay?)")
        csc = c.get("securityContext", {})
        for key, want in [("readOnlyRootFilesystem", True), ("allowPrivilegeEscalation", False)]:
            if csc.get(key) is not want:
                errors.append(f"{what}: securityContext.{key} is not {want}")
        if "ALL" not in csc.get("capabilities", {}).get("drop", []):
            errors.append(f"{what}: capabilities do not drop ALL")
        res = c.get("resources", {})
        for kind in ("requests", "limits"):
            for r in ("cpu", "memory"):
                if r not in res.get(kind, {}):
                    errors.append(f"{what}: no resources.{kind}.{r}")
        for m in c.get("volumeMounts", []):
            if m["name"] not in volumes:
                errors.append(f"{what}: volumeMount {m['name']} names no volume")
        mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
        for path in ("/cache", "/tmp"):
            v = volumes.get(mounts.get(path, ""), {})
            if "emptyDir" not in v:
                errors.append(f"{what}: {path} is not an emptyDir (the root filesystem is read-only)")
        for v in volumes.values():
            cm = v.get("configMap", {}).get("name")
            if cm and cm not in configmaps:
                errors.append(f"{what}: volume {v['name']} names ConfigMap {cm}, which is not rendered")
        env = {e["name"]: e for e in c.get("env", [])}
        for e in env.values():
            ref = e.get("valueFrom", {}).get("configMapKeyRef")
            if ref:
                cm = configmaps.get(ref["name"])
                if cm is None or ref["key"] not in cm.get("data", {}):
                    errors.append(f"{what}: env {e['name']} names {ref['name']}/{ref['key']}, which is not rendered")
        secrets = [s["secretRef"]["name"] for s in c.get("envFrom", []) if "secretRef" in s]
        if secrets != [secret_name]:
            errors.append(f"{what}: envFrom secretRef {secrets} is not [{secret_name!r}] (secret.example.yaml)")
        args = [str(a) for a in c.get("args", [])]
        for var in re.findall(r"\$\(([A-Za-z_][A-Za-z0-9_]*)\)", " ".join(args)):
            if var not in env:
                errors.append(f"{what}: args use $({var}), which env does not define (Kubernetes would pass it literally)")
        if args[:len(role)] != role:
            errors.append(f"{what}: args do not start with the subcommand {' '.join(role)!r}: {args}")
        flags = parse_args(args, len(role))
        if flags.get("--cache") != "/cache":
            errors.append(f"{what}: no `--cache /cache`")
        if flags.get("--run") != "$(FIVEUP_RUN)":
            errors.append(f"{what}: no `--run $(FIVEUP_RUN)`")
        # The URL: the ConfigMap key FIVEUP_RUN's env names (kustomize has appended the hash).
        ref = env.get("FIVEUP_RUN", {}).get("valueFrom", {}).get("configMapKeyRef")
        if not ref:
            errors.append(f"{what}: env FIVEUP_RUN does not come from a ConfigMap (the one place to set the URL)")
        url = configmaps.get((ref or {}).get("name", ""), {}).get("data", {}).get((ref or {}).get("key", ""), "")
        if not re.match(r"^(s3|gs|az)://[^/]+/.+", url):
            errors.append(f"{what}: FIVEUP_RUN {url!r} is not an s3://, gs:// or az:// URL with a prefix")
        return c, flags, env, volumes

    if jobs:
        job = jobs[0]
        pod = job["spec"]["template"]
        if pod["spec"].get("restartPolicy") != "OnFailure":
            errors.append("trainer Job: restartPolicy is not OnFailure")
        backoff = job["spec"].get("backoffLimit", 6)
        if not isinstance(backoff, int) or backoff < 20:
            errors.append("trainer Job: backoffLimit below 20: a long run gives up after a few restarts")
        if job["spec"].get("parallelism", 1) != 1 or job["spec"].get("completions", 1) != 1:
            errors.append("trainer Job: parallelism and completions must be 1 (one trainer per run)")
        got = pod_checks("trainer Job", pod, "trainer", ["train"])
        if got:
            c, flags, env, volumes = got
            cfg = flags.get("--config", "")
            mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
            vol = volumes.get(mounts.get(str(Path(cfg).parent), ""), {})
            cm = configmaps.get(vol.get("configMap", {}).get("name", ""))
            if cm is None or Path(cfg).name not in cm.get("data", {}):
                errors.append(f"trainer Job: --config {cfg!r} is not a file of a mounted ConfigMap")
            if name == "gpu" and str(c["resources"].get("limits", {}).get("nvidia.com/gpu")) != "1":
                errors.append("trainer Job: the gpu overlay does not limit nvidia.com/gpu to 1")
            if name == "cpu" and "nvidia.com/gpu" in c["resources"].get("limits", {}):
                errors.append("trainer Job: the cpu overlay asks for a GPU")
    if deps:
        dep = deps[0]
        deployment_checks("worker Deployment", dep)
        got = pod_checks("worker Deployment", dep["spec"]["template"], "worker", ["selfplay"])
        if got:
            c, flags, env, volumes = got
            worker_name_checks("worker Deployment", flags, env, "--worker")
            if "--config" in flags:
                errors.append("worker Deployment: workers take no --config (the run carries it)")
    if games:
        what = "games-worker Deployment"
        dep = games[0]
        sel = deployment_checks(what, dep)
        component = sel.get("app.kubernetes.io/component")
        taken = training_components()
        if not component or component in taken:
            errors.append(f"{what}: the selector's app.kubernetes.io/component {component!r} is not one of its own "
                          f"(the training run's pods use {sorted(taken)}): the Deployments would fight over pods")
        got = pod_checks(what, dep["spec"]["template"], "games-worker", ["games", "worker"])
        if got:
            c, flags, env, volumes = got
            worker_name_checks(what, flags, env, "--name")
            if flags.get("--stay") is not True:
                errors.append(f"{what}: no --stay: a finished evaluation would end the pods and the Deployment restart them")
            res = c.get("resources", {})
            cpus = {str(res.get(k, {}).get("cpu")) for k in ("requests", "limits")}
            if len(cpus) != 1 or cpus != {str(flags.get("--concurrency"))}:
                errors.append(f"{what}: --concurrency {flags.get('--concurrency')!r} differs from the CPU request "
                              f"and limit {sorted(cpus)} (one game per CPU; limit = request)")
            if "--config" in flags:
                errors.append(f"{what}: game workers take no --config (the coordinator's jobs carry everything)")
    fail(errors)


SBATCH_NEEDED = {
    "trainer.sbatch": ["--job-name", "--time", "--output", "--requeue", "--signal", "--open-mode"],
    "trainer-gpu.sbatch": ["--job-name", "--time", "--output", "--requeue", "--signal", "--open-mode", "--gres"],
    "workers.sbatch": ["--job-name", "--time", "--output", "--requeue", "--signal", "--open-mode", "--array"],
    "games-workers.sbatch": ["--job-name", "--time", "--output", "--requeue", "--signal", "--open-mode", "--array",
                             "--cpus-per-task"],
}
ARRAY = re.compile(r"^(\d+(-\d+(:\d+)?)?)(,\d+(-\d+(:\d+)?)?)*(%\d+)?$")


def check_sbatch(path):
    errors = []
    lines = Path(path).read_text().splitlines()
    if not lines or not lines[0].startswith("#!"):
        errors.append("no #! line (sbatch needs one)")
    options = {}
    first_command = None
    for no, line in enumerate(lines, 1):
        s = line.strip()
        if s.startswith("#SBATCH"):
            if first_command is not None:
                errors.append(f"line {no}: #SBATCH after the first command (line {first_command}): sbatch ignores it")
                continue
            rest = s[len("#SBATCH"):]
            if not rest.startswith((" ", "\t")):
                errors.append(f"line {no}: malformed directive {s!r}")
                continue
            for tok in rest.split("#", 1)[0].split():
                if not tok.startswith("--"):
                    errors.append(f"line {no}: {tok!r}: write directives as --long-option[=value]")
                    continue
                key, _, value = tok.partition("=")
                if key in options:
                    errors.append(f"line {no}: {key} given twice")
                options[key] = value
        elif s and not s.startswith("#") and first_command is None:
            first_command = no
    base = Path(path).name
    for key in SBATCH_NEEDED.get(base, []):
        if key not in options:
            errors.append(f"no #SBATCH {key}")
    if "--array" in options and not ARRAY.match(options["--array"]):
        errors.append(f"--array={options['--array']}: not an array specification (e.g. 0-7, 0-63%16)")
    m = re.match(r"^(\d+)(-(\d+))?(:(\d+))?", options.get("--array", ""))
    if m and m.group(3) and int(m.group(3)) < int(m.group(1)):
        errors.append(f"--array={options['--array']}: the range runs backwards")
    sig = options.get("--signal", "")
    if sig and not re.match(r"^B:USR1@\d+$", sig):
        errors.append(f"--signal={sig}: common.sh requeues on USR1 sent to the batch shell (B:USR1@SECONDS)")
    if "--gres" in options and not re.match(r"^gpu(:[A-Za-z0-9_.-]+)?:\d+$", options["--gres"]):
        errors.append(f"--gres={options['--gres']}: expected gpu[:TYPE]:N")
    if "common.sh" not in Path(path).read_text():
        errors.append("does not source deploy/slurm/common.sh")
    fail(errors)


def check_dockerfile(path):
    errors = []
    text = Path(path).read_text()
    setup = (ROOT / "scripts/setup.sh").read_text()
    for marker in (".fiveup-libtorch",):
        if marker in text and marker not in setup:
            errors.append(f"names {marker}, which scripts/setup.sh no longer writes")
    if "FIVEUP_TORCH_CUDA" not in setup:
        errors.append("passes FIVEUP_TORCH_CUDA, which scripts/setup.sh no longer reads")
    for src in re.findall(r"^COPY\s+(?!--from)(\S+)\s", text, re.M):
        if src != "." and not (ROOT / src).exists():
            errors.append(f"COPY {src}: no such file in the repository")
    m = re.search(r"^ARG RUST_IMAGE=rust:(\d+)\.(\d+)", text, re.M)
    cargo = (ROOT / "Cargo.toml").read_text()
    msrv = re.search(r'^rust-version\s*=\s*"(\d+)\.(\d+)', cargo, re.M)
    if not m:
        errors.append("no `ARG RUST_IMAGE=rust:X.Y-...`")
    elif msrv and (int(m.group(1)), int(m.group(2))) < (int(msrv.group(1)), int(msrv.group(2))):
        errors.append(f"rust:{m.group(1)}.{m.group(2)} is older than Cargo.toml's rust-version {msrv.group(1)}.{msrv.group(2)}")
    if not dockerfile_user():
        errors.append("no numeric `USER uid:gid` (Kubernetes' runAsNonRoot needs a numeric user)")
    if not re.search(r'^ENTRYPOINT \["/usr/local/bin/fiveup"\]', text, re.M):
        errors.append('ENTRYPOINT is not ["/usr/local/bin/fiveup"] (the manifests pass only args)')
    fail(errors)


def main(argv):
    cmds = {"config": (check_config, 2), "manifests": (check_manifests, 2),
            "sbatch": (check_sbatch, 1), "dockerfile": (check_dockerfile, 1)}
    if len(argv) < 2 or argv[1] not in cmds or len(argv) - 2 != cmds[argv[1]][1]:
        sys.exit(__doc__)
    cmds[argv[1]][0](*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
