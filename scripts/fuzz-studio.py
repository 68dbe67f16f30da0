#!/usr/bin/env python3
"""The studio's leg of the fuzz suite: random requests to a running kinema-studio, mixing the
hostile headers a web page or a rebinding attack can send (a foreign or missing Host, a foreign or
null Origin, Sec-Fetch-Site of another site, text/plain, form and multipart bodies) with hostile
bodies (bakes sized to never end, numbers past a double's range, deep nesting, duplicate fields,
broken UTF-8, oversized and truncated bodies) and valid ones. Each answer is sorted into a class:

- served: a request that should succeed did (200; a bake's answer holds its keyframes);
- refused: a request that should be refused was, with a JSON error that says why;
- wrong: a hostile request served, a valid one refused, a status the oracle does not expect;
- unclear: a refusal without a JSON `error` message;
- hang: no answer within 30 s, or an accepted bake that took longer than its bound;
- crash: the server is gone.

With --costly (for a release build) the costliest bakes the studio accepts join the bodies, and
afterwards an ordinary bake must answer within 2 s while four of them run. Last, SIGTERM must end
the server within 1 s. Exits 1 on anything but served and refused.

Usage: fuzz-studio.py KINEMA_STUDIO [--cases N] [--seed S] [--seconds T] [--costly]
"""
import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")

# The paths the studio serves and the method each takes.
PATHS = {"/": "GET", "/studio.js": "GET", "/studio.css": "GET", "/openapi.json": "GET",
         "/api/catalog": "GET", "/api/bake": "POST"}
OTHER_PATHS = ["/nope", "/api/bake/", "//api/bake", "/api", "/%00", "/" + "a" * 5000, "/api/bake?x=1"]

VALID_BODIES = [
    {"source": "spring", "response": 0.5, "dampingRatio": 0.3},
    {"source": "spring", "stiffness": 170, "damping": 26},
    {"source": "spring", "tension": 120, "friction": 14},
    {"source": "spring", "stiffness": 100, "damping": 10, "mass": 1, "velocity": 3},
    {"source": "easing", "easing": "bounce-out"},
    {"source": "easing", "easing": "elastic-out", "duration": 2, "strategy": "adaptive"},
    {"source": "drop", "height": 1, "gravity": 9.81, "restitution": 0.5},
    {"source": "scene", "scene": open(os.path.join(EXAMPLES, "three-balls-box-2d.json")).read(), "duration": 0.5},
]
# The costliest bakes the studio accepts: at its limits of duration, fps and tolerance.
COSTLY_BODIES = [
    '{"source":"drop","restitution":0.99,"duration":30,"tolerance":1e-5,"fps":1000}',
    '{"source":"easing","easing":"elastic-out(1,0.01)","duration":30,"tolerance":1e-5,"fps":1000}',
    '{"source":"spring","response":0.5,"bounce":0.95,"duration":30,"tolerance":1e-5,"fps":1000}',
    '{"source":"spring","response":0.1,"bounce":0.5,"duration":30,"tolerance":1e-5,"fps":1000}',
]
# Bodies with valid syntax that once stopped or stalled the studio, or that must be refused.
HOSTILE_BODIES = [
    '{"source":"spring","stiffness":1e38,"damping":1}',
    '{"source":"spring","stiffness":1e308,"damping":1}',
    '{"source":"spring","tension":1e300,"friction":1}',
    '{"source":"spring","stiffness":1e30,"damping":1e-30,"mass":1e-8,"duration":30}',
    '{"source":"drop","restitution":0.9999,"restVelocity":1e-12,"gravity":1e6,"duration":30,"tolerance":1e-5}',
    '{"source":"easing","easing":"elastic-out(1,0.00001)","duration":30}',
    '{"source":"easing","easing":"elastic-out(1,0.00001)","duration":30,"fps":1000,"tolerance":1e-5}',
    '{"source":"spring","response":0.02,"bounce":0.9,"duration":30,"tolerance":1e-5}',
    '{"source":"spring","stiffness":100,"damping":10,"mass":1e-400}',
    '{"source":"spring","stiffness":1e999,"damping":10}',
    '{"source":"spring","response":0.5,"bounce":0.2,"bounce":0.9}',
    '{"source":"spring","response":-0,"bounce":"nan"}',
    '{"source":"easing","easing":"cubic-bezier(0,1e308,1,-1e308)"}',
    '{"source":"easing","easing":"\\u0000"}',
    '{"source":"' + "x" * 3000 + '"}',
    "[" * 100000 + "]" * 100000,
    '{"source":"spring",' + '"a":1,' * 3000 + '"b":2}',
    "",
    "null",
    '{"source":"spring"',
    '{"source": 1}',
    # Scenes: too many bodies, not JSON, 1-D, a canvas past its bounds, a spring too stiff to step.
    json.dumps({"source": "scene", "duration": 1, "scene": json.dumps({"dimensions": 2, "bodies": [
        {"name": f"b{i}", "position": [i, 0]} for i in range(17)]})}),
    '{"source":"scene","scene":"{\\"dimensions\\": 2,","duration":1}',
    '{"source":"scene","scene":"{\\"dimensions\\": 1, \\"bodies\\": [{\\"name\\": \\"a\\", \\"position\\": [0]}]}","duration":1}',
    '{"source":"scene","scene":"{\\"dimensions\\": 2, \\"bodies\\": [{\\"name\\": \\"a\\", \\"position\\": [0, 0]}]}","duration":1,'
    '"canvas":"99999x1e308","pixelTolerance":1e-300}',
    json.dumps({"source": "scene", "duration": 10, "scene": json.dumps({
        "dimensions": 2, "bodies": [{"name": "a", "position": [0, 0]}, {"name": "b", "position": [1, 0]}],
        "springs": [{"bodies": ["a", "b"], "stiffness": 1e12, "restLength": 0.5}]})}),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def exchange(port, raw, timeout=30):
    """Sends the raw request bytes on a new connection; (status, headers, body, seconds), or None
    when no answer came within `timeout`."""
    start = time.time()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer (a 413) and close before it has read everything
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except socket.timeout:
            return None
        except ConnectionResetError:
            pass
    data = b"".join(chunks)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines or not lines[0].startswith("HTTP/1.1 "):
        return (0, {}, data, time.time() - start)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return (int(lines[0].split()[1]), headers, body, time.time() - start)


def request(method, path, headers, body):
    lines = [f"{method} {path} HTTP/1.1"] + [f"{k}: {v}" for k, v in headers] + ["Connection: close"]
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")


def random_case(rng, port, bodies):
    """One request and what a correct studio does with it: `expect` is the set of statuses it may
    answer; `hostile` marks a request no answer may serve."""
    own = f"127.0.0.1:{port}"
    path = rng.choice(list(PATHS) + ["/api/bake"] * 6 + OTHER_PATHS)
    known = PATHS.get(path.split("?")[0])
    method = known if known and rng.random() < 0.85 else rng.choice(["GET", "POST", "PUT", "DELETE", "OPTIONS"])

    host = rng.choice([own, own, own, f"localhost:{port}", "evil.example", f"evil.example:{port}",
                       "127.0.0.1.nip.io", "localhost.evil.example", None, ""])
    origin = rng.choice([None, None, f"http://{own}", "null", "https://another.site", "http://127.0.0.1:1"])
    site = rng.choice([None, None, None, "same-origin", "none", "cross-site", "same-site"])
    kind = rng.choice(["application/json"] * 4 + ["application/json; charset=utf-8", "APPLICATION/JSON",
                       "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None])
    headers = []
    if host is not None:
        headers.append(("Host", host))
    if origin:
        headers.append(("Origin", origin))
    if site:
        headers.append(("Sec-Fetch-Site", site))
    if kind and method == "POST":
        headers.append(("Content-Type", kind))

    valid_body = False
    body = None
    if method in ("POST", "PUT"):
        roll = rng.random()
        if roll < 0.4:
            fields = dict(rng.choice(VALID_BODIES))
            body, valid_body = json.dumps(fields).encode(), True
        elif roll < 0.8:
            body = rng.choice(bodies).encode()
        elif roll < 0.9:
            body = json.dumps(rng.choice(VALID_BODIES)).encode()
            cut = rng.randrange(len(body))
            body = body[:cut] + bytes([rng.randrange(256)]) + body[cut + 1:]  # a byte changed
        else:
            body = b'{"source":"easing","easing":"\xff\xfe"}'  # not UTF-8

    bad_host = not host or host.rsplit(":", 1)[0] not in ("127.0.0.1", "localhost")
    cross = method == "POST" and (
        (origin is not None and origin != f"http://{host}") or site in ("cross-site", "same-site"))
    not_json = method == "POST" and (kind is None or kind.split(";")[0].strip().lower() != "application/json")
    hostile = bad_host or cross or not_json

    if known is None:
        expect = {404}
    elif method != known:
        expect = {405}
    elif host in (None, ""):
        expect = {400}
    elif bad_host or cross:
        expect = {403}
    elif not_json:
        expect = {415}
    elif method == "GET":
        expect = {200}
    elif valid_body:
        expect = {200}
    else:
        expect = {200, 400, 413, 422}  # a hostile body: baked within its bounds, or refused
    return request(method, path, headers, body), expect, hostile, (method, path, headers, body)


def classify(answer, expect, hostile, alive):
    if not alive:
        return "crash", "the server is gone"
    if answer is None:
        return "hang", "no answer within 30 s"
    status, headers, body, seconds = answer
    if status not in expect:
        return "wrong", f"status {status}, expected {sorted(expect)}: {body[:200]!r}"
    if status == 200:
        if hostile:
            return "wrong", "a hostile request was served"
        if seconds > 10:
            return "hang", f"an accepted request took {seconds:.1f} s"
        return "served", ""
    try:
        message = json.loads(body).get("error")
    except (ValueError, AttributeError):
        message = None
    if not isinstance(message, str) or not message:
        return "unclear", f"status {status} without a JSON error: {body[:200]!r}"
    return "refused", ""


def bake(port, fields):
    body = json.dumps(fields).encode()
    headers = [("Host", f"127.0.0.1:{port}"), ("Content-Type", "application/json")]
    return exchange(port, request("POST", "/api/bake", headers, body))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("studio")
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--costly", action="store_true",
                        help="also the costliest accepted bakes, and an ordinary bake beside four of them "
                             "(for a release build: a debug build takes a hundred times as long)")
    args = parser.parse_args()
    bodies = HOSTILE_BODIES + (COSTLY_BODIES if args.costly else [])

    port = free_port()
    server = subprocess.Popen([args.studio, "--port", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)

    rng = random.Random(args.seed)
    counts, problems, slowest = {}, [], 0.0
    start = time.time()
    ran = 0
    try:
        while ran < args.cases and time.time() - start < args.seconds:
            raw, expect, hostile, case = random_case(rng, port, bodies)
            try:
                answer = exchange(port, raw)
            except OSError as error:
                answer = (0, {}, str(error).encode(), 0)
            outcome, why = classify(answer, expect, hostile, server.poll() is None)
            if outcome == "served":
                slowest = max(slowest, answer[3])
            counts[outcome] = counts.get(outcome, 0) + 1
            if why:
                method, path, headers, body = case
                problems.append(f"{method} {path[:60]} {headers} {(body or b'')[:120]!r}: {outcome}: {why}")
            ran += 1
            if outcome == "crash":
                break

        # Responsiveness: an ordinary bake while four of the costliest accepted bakes run.
        # (A duration of its own each, so that no answer comes from the studio's cache.)
        threads = [threading.Thread(target=bake, args=(port, dict(json.loads(text), duration=29.9 - 0.1 * i)))
                   for i, text in enumerate(COSTLY_BODIES if args.costly else [])]
        for thread in threads:
            thread.start()
        time.sleep(0.05)
        ordinary = bake(port, {"source": "spring", "response": 0.4, "bounce": 0.1})
        for thread in threads:
            thread.join(60)
        if threads and ordinary:
            print(f"fuzz-studio: an ordinary bake beside four costly ones: {ordinary[3]:.3f} s")
        if ordinary is None or ordinary[0] != 200 or ordinary[3] > 2:
            problems.append(f"an ordinary bake beside four costly ones: {ordinary and ordinary[:1]}, "
                            f"{ordinary and ordinary[3]} s")
            counts["wrong"] = counts.get("wrong", 0) + 1
    finally:
        ended = time.time()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=1)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            problems.append("SIGTERM did not end the server within 1 s")
            counts["hang"] = counts.get("hang", 0) + 1
    summary = ", ".join(f"{counts[k]} {k}" for k in sorted(counts))
    print(f"fuzz-studio: {ran} requests (seed {args.seed}): {summary}; slowest served "
          f"{slowest:.2f} s; ended {time.time() - ended:.2f} s after SIGTERM")
    bad = [k for k in counts if k not in ("served", "refused")]
    for problem in problems[:20]:
        print("  " + problem)
    sys.exit(1 if bad or problems else 0)


if __name__ == "__main__":
    main()
