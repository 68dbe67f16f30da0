import RealModule

extension KeyframeExport {
    /// Each body's name as an identifier, then each drawn plane's after `plane-`, all distinct:
    /// `ball 1` → `ball-1`, a second `ball-1` → `ball-1-2`.
    static func identifiers(_ scene: SceneKeyframes) -> (bodies: [String], planes: [String]) {
        var used = Set<String>()
        func identifier(_ name: String) -> String {
            let base = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
            var name = base.first.map { !$0.isNumber } ?? false ? base : "body-" + base, k = 2
            let stem = name
            while !used.insert(name).inserted {
                name = stem + "-\(k)"
                k += 1
            }
            return name
        }
        let bodies = scene.bodies.map { identifier($0.name) }
        return (bodies, scene.planes.map { identifier("plane-" + $0.name) })
    }

    /// A baked scene as JSON: `{"canvas": {"width", "height", "pixelsPerUnit", "origin", "flipsY"},
    /// "duration", "tolerance", "bodies": [{"name", "radius", "static", "keyTimes", "x", "y",
    /// "xTimingFunctions", "yTimingFunctions", "keyframeCount", "maxError"}], "planes" (when drawn:
    /// [{"name", "from", "to"}]), "maxError", "bytes"}`,
    /// pixels and seconds, each number to the digits the tolerance needs; `maxError` is the
    /// fit's plus what the rounding can add, and `bytes` the size of the text.
    public static func json(_ scene: SceneKeyframes) -> String {
        let p = scene.precision, m = scene.mapping
        let v = p.value
        func c(_ f: CubicBezierTimingFunction) -> String { "[" + p.controls(f, separator: ",") + "]" }
        let bodies = scene.bodies.map { body in
            let a = body.x.animation, b = body.y.animation
            let keyTimes = p.fractions(a.keyTimes, duration: a.duration)
            return """
                {"name": \(string(body.name)), "radius": \(v(body.radius)), "static": \(body.isStatic), \
                "keyframeCount": \(body.keyframeCount), "maxError": \(p.error(body.maxError + p.roundingError)),
                      "keyTimes": [\(keyTimes.joined(separator: ","))],
                      "x": [\(a.values.map { v($0[0]) }.joined(separator: ","))],
                      "y": [\(b.values.map { v($0[0]) }.joined(separator: ","))],
                      "xTimingFunctions": [\(a.timingFunctions.map(c).joined(separator: ","))],
                      "yTimingFunctions": [\(b.timingFunctions.map(c).joined(separator: ","))]}
                """
        }
        let worst = scene.maxError
        let lines = scene.planes.map { line in
            #"{"name": \#(string(line.name)), "from": [\#(v(line.from.x)), \#(v(line.from.y))], "to": [\#(v(line.to.x)), \#(v(line.to.y))]}"#
        }
        let planes = lines.isEmpty ? "" : "\n  \"planes\": [\n    " + lines.joined(separator: ",\n    ") + "\n  ],"
        return sized(
            """
            {"canvas": {"width": \(number(m.width)), "height": \(number(m.height)), "pixelsPerUnit": \(number(m.pixelsPerUnit)), \
            "origin": [\(v(m.origin.x)), \(v(m.origin.y))], "flipsY": \(m.flipsY)},
              "duration": \(number(scene.duration)), "tolerance": \(number(scene.tolerance)), "maxError": \(p.error(worst)),
              "bodies": [
                \(bodies.joined(separator: ",\n    "))
              ],\(planes)
              "bytes": BYTES}

            """)
    }

    /// `text` with `BYTES` replaced by the text's own size in UTF-8 bytes.
    static func sized(_ text: String) -> String {
        var size = text.utf8.count - 5
        while true {
            let next = text.utf8.count - 5 + "\(size)".utf8.count
            if next == size { break }
            size = next
        }
        return text.replacing("BYTES", with: "\(size)")
    }

    /// A baked scene as CSS: per body, `--NAME-x` and `--NAME-y` registered as numbers, one
    /// `@keyframes` each with a `cubic-bezier()` a segment, and the class `.kinema-NAME` that
    /// draws the body as a circle of its radius translated by both; `.kinema-scene` is the
    /// canvas, in pixels. Numbers to the digits the tolerance needs; a comment states the
    /// keyframes, the error in pixels and the size in bytes.
    public static func css(_ scene: SceneKeyframes) -> String {
        let p = scene.precision, (names, planeNames) = identifiers(scene), v = p.value
        var text = """
            /* \(scene.bodies.count) \(scene.bodies.count == 1 ? "body" : "bodies"), \(scene.bodies.map(\.keyframeCount).reduce(0, +)) keyframes, max error \
            \(p.error(scene.maxError)) px; BYTES bytes */
            .kinema-scene { position: relative; width: \(number(scene.mapping.width))px; height: \(number(scene.mapping.height))px; overflow: hidden;\(scene.planes.isEmpty ? "" : " isolation: isolate;") }

            """
        for (body, name) in zip(scene.bodies, names) {
            let r = v(body.radius)
            var animations: [String] = []
            for (axis, fit) in [("x", body.x), ("y", body.y)] {
                let a = fit.animation, property = "--\(name)-\(axis)", keyframes = "kinema-\(name)-\(axis)"
                let percents = p.fractions(a.keyTimes, duration: a.duration, scale: 100)
                text += "@property \(property) { syntax: '<number>'; inherits: false; initial-value: 0; }\n"
                text += "@keyframes \(keyframes) {"
                for i in a.keyTimes.indices {
                    text += " \(percents[i])% { \(property): \(v(a.values[i][0]));"
                    if i < a.timingFunctions.count { text += cssTiming(a.timingFunctions[i], p, separator: ",") }
                    text += " }"
                }
                text += " }\n"
                animations.append("\(keyframes) \(number(a.duration))s linear both")
            }
            text += """
                .kinema-\(name) { position: absolute; left: 0; top: 0; width: calc(2 * \(r)px); height: calc(2 * \(r)px); \
                border-radius: 50%; background: #2456c9; translate: calc(var(--\(name)-x) * 1px - \(r)px) \
                calc(var(--\(name)-y) * 1px - \(r)px); animation: \(animations.joined(separator: ", ")); }

                """
        }
        for (line, name) in zip(scene.planes, planeNames) {
            let span = line.to - line.from
            let degrees = Double.atan2(y: span.y, x: span.x) * 180 / .pi
            text += """
                .kinema-\(name) { position: absolute; left: \(v(line.from.x))px; top: \(v(line.from.y))px; \
                width: \(v((span * span).sum().squareRoot()))px; height: 2px; margin-top: -1px; background: #8a8f98; \
                transform-origin: 0 1px; rotate: \(rounded(degrees, decimals: max(4, p.valueDecimals)))deg; z-index: -1; }

                """
        }
        return sized(text)
    }

    /// A baked scene as a Lottie document of the canvas's size: one shape layer per body, a
    /// circle of its radius whose position is split into x and y keyframes (After Effects'
    /// separate dimensions), `frameRate` frames a second, then one per drawn plane (`plane NAME`,
    /// a stroked line beneath the bodies); `meta` states the error in pixels and the size in bytes.
    public static func lottie(_ scene: SceneKeyframes, frameRate: Double = 60) -> String {
        let p = scene.precision, v = p.value
        let lastFrame = (scene.duration * frameRate).rounded(.down) + 1
        var layers: [String] = []
        for (i, body) in scene.bodies.enumerated() {
            func track(_ fit: KeyframeFit) -> String {
                let a = fit.animation
                let frames = p.frames(a.keyTimes, duration: a.duration, frameRate: frameRate)
                let keyframes = a.keyTimes.indices.map { k in
                    var entry = "{\"t\":\(frames[k]),\"s\":[\(v(a.values[k][0]))]"
                    if k < a.timingFunctions.count {
                        let f = p.exported(a.timingFunctions[k]), n = p.control
                        entry +=
                            ",\"o\":{\"x\":[\(n(f.x1))],\"y\":[\(n(f.y1))]},\"i\":{\"x\":[\(n(f.x2))],\"y\":[\(n(f.y2))]}"
                    }
                    return entry + "}"
                }
                return "{\"a\":1,\"k\":[" + keyframes.joined(separator: ",") + "]}"
            }
            let d = v(2 * body.radius)
            layers.append(
                """
                {"ddd":0,"ind":\(i + 1),"ty":4,"nm":\(string(body.name)),"sr":1,"ao":0,"bm":0,"ip":0,"op":\(number(lastFrame)),"st":0,
                      "ks":{"a":{"a":0,"k":[0,0]},"p":{"s":true,"x":\(track(body.x)),"y":\(track(body.y))},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}},
                      "shapes":[{"ty":"el","nm":"circle","d":1,"s":{"a":0,"k":[\(d),\(d)]},"p":{"a":0,"k":[0,0]}},{"ty":"fl","nm":"fill","c":{"a":0,"k":[0.14,0.34,0.79,1]},"o":{"a":0,"k":100},"r":1}]}
                """)
        }
        for line in scene.planes {
            let ends = "[[\(v(line.from.x)),\(v(line.from.y))],[\(v(line.to.x)),\(v(line.to.y))]]"
            layers.append(
                """
                {"ddd":0,"ind":\(layers.count + 1),"ty":4,"nm":\(string("plane " + line.name)),"sr":1,"ao":0,"bm":0,"ip":0,"op":\(number(lastFrame)),"st":0,
                      "ks":{"a":{"a":0,"k":[0,0]},"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}},
                      "shapes":[{"ty":"sh","nm":"line","ks":{"a":0,"k":{"c":false,"v":\(ends),"i":[[0,0],[0,0]],"o":[[0,0],[0,0]]}}},{"ty":"st","nm":"stroke","c":{"a":0,"k":[0.54,0.56,0.6,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":1,"lj":1}]}
                """)
        }
        let worst = scene.maxError
        return sized(
            """
            {"v":"5.7.0","fr":\(number(frameRate)),"ip":0,"op":\(number(lastFrame)),"w":\(Int(scene.mapping.width.rounded())),"h":\(Int(scene.mapping.height.rounded())),"nm":"kinema scene","ddd":0,"assets":[],
              "layers":[
                \(layers.joined(separator: ",\n    "))
              ],
              "meta":{"g":"kinema","d":\(string("\(scene.bodies.count) bodies, max error \(p.error(worst)) px, BYTES bytes"))}}

            """)
    }

    /// A baked scene as Swift source: per body, a function that makes a `CAAnimationGroup` of
    /// `position.x` and `position.y` keyframe animations (points: the canvas's pixels), inside
    /// `#if canImport(QuartzCore)`; with drawn planes, `makePlanesPath()`.
    public static func swift(_ scene: SceneKeyframes) -> String {
        let p = scene.precision
        let names = swiftIdentifiers(scene.bodies.map(\.name))
        var text = """
            // \(scene.bodies.count) bodies on a \(number(scene.mapping.width))×\(number(scene.mapping.height)) canvas (generated by kinema)
            #if canImport(QuartzCore)
            import QuartzCore

            """
        for (body, name) in zip(scene.bodies, names) {
            var parts: [String] = []
            for (axis, fit) in [("x", body.x), ("y", body.y)] {
                let a = fit.animation
                let keyTimes = p.fractions(a.keyTimes, duration: a.duration)
                let functions = a.timingFunctions.map { "CAMediaTimingFunction(controlPoints: \(p.controls($0)))" }
                parts.append(
                    """
                        let \(axis) = CAKeyframeAnimation(keyPath: "position.\(axis)")
                        \(axis).values = [\(a.values.map { p.value($0[0]) }.joined(separator: ", "))]
                        \(axis).keyTimes = [\(keyTimes.joined(separator: ", "))]
                        \(axis).timingFunctions = [\(functions.joined(separator: ", "))]
                        \(axis).duration = \(number(a.duration))
                    """)
            }
            let capitalized = name.prefix(1).uppercased() + name.dropFirst()
            text += """

                /// \(swiftEscaped(body.name, quoted: false)): \(body.keyframeCount) keyframes, radius \(p.value(body.radius)) pt.
                func make\(capitalized)Animation() -> CAAnimationGroup {
                \(parts.joined(separator: "\n"))
                    let group = CAAnimationGroup()
                    group.animations = [x, y]
                    group.duration = \(number(scene.duration))
                    return group
                }

                """
        }
        text += planesPath(scene, function: "makePlanesPath() -> CGPath", path: "let path = CGMutablePath()")
        return text + "#endif\n"
    }

    /// A function that returns the drawn planes as a path, a move to each plane's start and a
    /// line to its end (none without drawn planes): `path` declares the path, `function` the rest.
    static func planesPath(_ scene: SceneKeyframes, function: String, path: String) -> String {
        guard !scene.planes.isEmpty else { return "" }
        let v = scene.precision.value
        let segments = scene.planes.map {
            "    path.move(to: CGPoint(x: \(v($0.from.x)), y: \(v($0.from.y))))  // \(swiftEscaped($0.name, quoted: false))\n"
                + "    path.addLine(to: CGPoint(x: \(v($0.to.x)), y: \(v($0.to.y))))"
        }
        return """

            /// The scene's planes on the canvas (points), a path to stroke beneath the bodies.
            func \(function) {
                \(path)
            \(segments.joined(separator: "\n"))
                return path
            }

            """
    }

    /// A baked scene as SwiftUI keyframes (inside `#if canImport(SwiftUI)`): `NameValues` holds
    /// each moving body's centre as a `CGPoint` on the canvas (points: its pixels), and
    /// `nameKeyframes()` two `KeyframeTrack`s per body, its x and y on the same key times, each
    /// segment a `LinearKeyframe` along that axis's cubic-bezier (`UnitCurve.bezier`), so the
    /// export plays the fit itself. Static bodies keep their places; drawn planes are the path
    /// `namePlanes()`.
    public static func swiftUI(_ scene: SceneKeyframes, name: String = "kinema") -> String {
        let p = scene.precision, values = swiftUIValues(name)
        let names = swiftIdentifiers(scene.bodies.map(\.name))
        var properties: [String] = [], tracks: [String] = []
        for (body, name) in zip(scene.bodies, names) {
            let a = body.x.animation, b = body.y.animation, v = p.value
            properties.append(
                "var \(name) = CGPoint(x: \(v(a.values[0][0])), y: \(v(b.values[0][0])))  // \(swiftString(body.name)): "
                    + "radius \(v(body.radius)) pt\(body.isStatic ? ", static" : ", \(body.keyframeCount) keyframes")")
            guard !body.isStatic else { continue }
            let durations = p.durations(a.keyTimes.map { $0 * a.duration })
            for (axis, animation) in [("x", a), ("y", b)] {
                let keyframes = animation.timingFunctions.enumerated().map { i, f in
                    "        LinearKeyframe(\(v(animation.values[i + 1][0])), duration: \(durations[i])\(swiftUICurve(f, p)))\n"
                }
                tracks.append("    KeyframeTrack(\\\(values).\(name).\(axis)) {\n" + keyframes.joined() + "    }")
            }
        }
        let comment =
            "\(scene.bodies.count) \(scene.bodies.count == 1 ? "body" : "bodies") on a "
            + "\(number(scene.mapping.width))×\(number(scene.mapping.height)) canvas, max error "
            + "\(p.error(scene.maxError)) px (generated by kinema)"
        let planes = planesPath(
            scene, function: "\(swiftIdentifiers([name])[0])Planes() -> Path", path: "var path = Path()")
        return swiftUIFile(comment, name: name, properties: properties, tracks: tracks, after: planes)
    }
}
