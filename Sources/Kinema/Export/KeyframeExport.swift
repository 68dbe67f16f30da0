/// Text exports of baked keyframes: CAKeyframeAnimation-shaped JSON, CSS, Lottie, Swift source.
public enum KeyframeExport {
    /// A number in shortest round-trip form (JSON has no NaN or ∞: those become null), zero
    /// without its sign (`-0.0`, which rounding leaves, means nothing to a player).
    package static func number(_ x: Double) -> String { x.isFinite ? "\(x == 0 ? 0 : x)" : "null" }

    /// A JSON string literal. Byte by byte (kinema-studio escapes whole exports with it): only
    /// quotes, backslashes and control characters change, and UTF-8's other bytes are ≥ 0x20.
    package static func string(_ text: String) -> String {
        var bytes: [UInt8] = [0x22]
        bytes.reserveCapacity(text.utf8.count + text.utf8.count / 8 + 2)
        let hex = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0..<0x20: bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A Swift string literal of `text` (`swiftEscaped`, quoted): JSON's `\u00XX` is not Swift's
    /// `\u{XX}`, and a raw line break would end the line (a comment's too).
    static func swiftString(_ text: String) -> String { swiftEscaped(text, quoted: true) }

    /// `text` with line breaks, tabs and other control characters (and U+2028, U+2029) escaped as
    /// Swift writes them, `\n`, `\t`, `\u{7}`; `quoted`, also its quotes and backslashes, in quotes.
    package static func swiftEscaped(_ text: String, quoted: Bool) -> String {
        var escaped = quoted ? "\"" : ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quoted: escaped += "\\\""
            case "\\" where quoted: escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}":
                escaped += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return quoted ? escaped + "\"" : escaped
    }

    /// The error an export of `fit` states: the fit's plus the rounding's (`exportedMaxError`).
    @_spi(Studio) public static func statedError(_ fit: KeyframeFit) -> String {
        fit.precision.error(fit.exportedMaxError)
    }

    /// `{"keyPath", "duration", "calculationMode", "values", "keyTimes", "timingFunctions",
    /// "keyframeCount", "maxError"}`, numbers to `fit.precision` (`maxError` then includes what
    /// the rounding can add).
    public static func json(_ fit: KeyframeFit) -> String {
        let a = fit.animation, p = fit.precision
        return """
            {
              "keyPath": \(string(a.keyPath)),
              "duration": \(number(a.duration)),
              "calculationMode": \(string(a.calculationMode.rawValue)),
              "values": [\(a.values.map { $0.count == 1 ? p.value($0[0]) : "[" + $0.map(p.value).joined(separator: ", ") + "]" }.joined(separator: ", "))],
              "keyTimes": [\(p.fractions(a.keyTimes, duration: a.duration).joined(separator: ", "))],
              "timingFunctions": [\(a.timingFunctions.map { "[\(p.controls($0))]" }.joined(separator: ", "))],
              "keyframeCount": \(a.keyframeCount),
              "maxError": \(statedError(fit))
            }
            """
    }

    /// A CSS custom property name for a key path: `position.x` → `--position-x`.
    static func cssProperty(_ keyPath: String) -> String {
        // `--` alone is reserved by CSS: an empty key path animates `--value`.
        "--"
            + (keyPath.isEmpty
                ? "value" : keyPath.map { $0.isLetter || $0.isNumber || $0 == "-" ? String($0) : "-" }.joined())
    }

    /// `name` as a CSS identifier, by CSSOM's "serialize an identifier" (what `CSS.escape` does):
    /// `a b{c}` → `a\ b\{c\}`, a leading digit → `\31 `, controls as hex escapes, NUL → U+FFFD.
    package static func cssIdentifier(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var text = ""
        for (i, c) in scalars.enumerated() {
            let digit = ("0"..."9").contains(c)
            if c == "\u{0}" {
                text += "\u{FFFD}"
            } else if (1...0x1F).contains(c.value) || c.value == 0x7F || (i == 0 && digit)
                || (i == 1 && digit && scalars[0] == "-")
            {
                text += "\\" + String(c.value, radix: 16) + " "
            } else if i == 0 && c == "-" && scalars.count == 1 {
                text += "\\-"
            } else if c.value >= 0x80 || c == "-" || c == "_" || digit || ("a"..."z").contains(c)
                || ("A"..."Z").contains(c)
            {
                text.unicodeScalars.append(c)
            } else {
                text += "\\"
                text.unicodeScalars.append(c)
            }
        }
        return text
    }

    /// `@property` registration (so the custom property interpolates as a number) and
    /// `@keyframes` with each keyframe's `animation-timing-function: cubic-bezier(…)`; `name` is
    /// escaped as a CSS identifier.
    public static func css(_ fit: KeyframeFit, name: String = "kinema") -> String {
        let a = fit.animation, p = fit.precision, property = cssProperty(a.keyPath), name = cssIdentifier(name)
        var text = "/* \(a.keyframeCount) keyframes, max error \(statedError(fit)); duration \(a.duration)s */\n"
        text += "@property \(property) { syntax: '<number>'; inherits: false; initial-value: 0; }\n"
        text += "@keyframes \(name) {\n"
        let percents = p.fractions(a.keyTimes, duration: a.duration, scale: 100)
        for i in a.keyTimes.indices {
            var line = "  \(percents[i])% { \(property): \(p.value(a.values[i][0]));"
            if i < a.timingFunctions.count { line += cssTiming(a.timingFunctions[i], p) }
            text += line + " }\n"
        }
        text += "}\n"
        text += ".\(name) { animation: \(name) \(number(a.duration))s linear both; }\n"
        return text
    }

    /// The motion as a `linear()` easing over the track's own duration: a `@keyframes NAME-linear`
    /// from its first value to its last and a class `.NAME-linear` that plays it with the easing
    /// (the custom property registered by `css`). `name` is escaped as a CSS identifier. Numbers
    /// are rounded within the easing's tolerance unless the fit's `rounding` is `.none`.
    public static func cssLinear(_ easing: CSSLinearEasing, _ fit: KeyframeFit, name: String = "kinema") -> String {
        let a = fit.animation, property = cssProperty(a.keyPath), name = cssIdentifier(name + "-linear")
        let from = a.values[0][0], to = a.values[a.values.count - 1][0]
        let rounded = fit.rounding == .toBound
        let first = rounded ? easing.end(from, travel: to - from) : number(from)
        let last = rounded ? easing.end(to, travel: to - from) : number(to)
        return """
            /* linear(): \(easing.stops.count) points, max error \(rounded ? upward(easing.exportedMaxError) : number(easing.maxError)) of the travel */
            @keyframes \(name) { from { \(property): \(first); } to { \(property): \(last); } }
            .\(name) { animation: \(name) \(number(a.duration))s \(easing.css(rounded: rounded)) both; }

            """
    }

    /// A playable Lottie document (`LottieDocument`, one layer per fit), as JSON text: what
    /// `kinema keyframes --format lottie` writes. `lottieProperty` gives a property's keyframes
    /// alone, to paste into a document of one's own.
    public static func lottie(_ fits: [KeyframeFit], document: LottieDocument = .standard) -> String {
        document.json(fits)
    }

    /// Bare Lottie keyframes (`"k"` of one animated property, not a playable document: see
    /// `LottieDocument`): `t` in frames at `frameRate`, `s` the value, `o`/`i` the out and in
    /// tangents (the segment's bezier controls).
    public static func lottieProperty(_ fit: KeyframeFit, frameRate: Double = 60) -> String {
        let a = fit.animation, p = fit.precision
        var frames: [String] = []
        let t = p.frames(a.keyTimes, duration: a.duration, frameRate: frameRate)
        for i in a.keyTimes.indices {
            var entry = "{\"t\": \(t[i]), \"s\": [\(a.values[i].map(p.value).joined(separator: ", "))]"
            if i < a.timingFunctions.count {
                let f = a.timingFunctions[i], c = p.control
                entry +=
                    ", \"o\": {\"x\": [\(c(f.x1))], \"y\": [\(c(f.y1))]}, \"i\": {\"x\": [\(c(f.x2))], \"y\": [\(c(f.y2))]}"
            }
            frames.append(entry + "}")
        }
        return "{\"a\": 1, \"k\": [\n  " + frames.joined(separator: ",\n  ") + "\n]}\n"
    }

    /// Swift source that builds the `CAKeyframeAnimation` (inside `#if canImport(QuartzCore)`).
    public static func swift(_ fit: KeyframeFit, name: String = "animation") -> String {
        let a = fit.animation, p = fit.precision, name = swiftIdentifiers([name])[0]
        // CAMediaTimingFunction holds Float controls: no more digits than a Float keeps.
        let c = { (x: Double) in p.controlDecimals < 9 ? p.control(x) : "\(Float(x))" }
        let functions = a.timingFunctions.map {
            "CAMediaTimingFunction(controlPoints: \(c($0.x1)), \(c($0.y1)), \(c($0.x2)), \(c($0.y2)))"
        }
        return """
            // \(a.keyframeCount) keyframes, max error \(statedError(fit)) (generated by kinema)
            #if canImport(QuartzCore)
            import QuartzCore

            func make\(name.prefix(1).uppercased() + name.dropFirst())() -> CAKeyframeAnimation {
                let \(name) = CAKeyframeAnimation(keyPath: \(swiftString(a.keyPath)))
                \(name).duration = \(number(a.duration))
                \(name).calculationMode = .linear
                \(name).values = [\(a.values.map { p.value($0[0]) }.joined(separator: ", "))]
                \(name).keyTimes = [\(p.fractions(a.keyTimes, duration: a.duration).joined(separator: ", "))]
                \(name).timingFunctions = [
                    \(functions.joined(separator: ",\n        "))
                ]
                return \(name)
            }
            #endif

            """
    }

    /// Swift source for SwiftUI keyframes (inside `#if canImport(SwiftUI)`): one `Double` property
    /// per track in `KinemaValues` and one `KeyframeTrack` each, in one `@KeyframesBuilder`
    /// function `kinemaKeyframes()` for `keyframeAnimator`. Each segment is a `LinearKeyframe`
    /// whose timing curve is its cubic-bezier (`UnitCurve.bezier`): SwiftUI interpolates from
    /// the last value to the next along it, as Core Animation and CSS do, so the export plays the
    /// fit itself. (A `CubicKeyframe` is a cubic in time with the given end velocities: from a
    /// bezier's end slopes it was 7 % of the travel off a damped cosine baked to 0.1 %.)
    public static func swiftUI(_ fits: [KeyframeFit]) -> String { swiftUI(fits, name: "kinema") }

    /// The same for one fit.
    public static func swiftUI(_ fit: KeyframeFit, name: String = "kinema") -> String { swiftUI([fit], name: name) }

    /// The same, declaring `NameValues` and `nameKeyframes()` (`name` as a Swift identifier:
    /// `"card slide"` gives `CardSlideValues` and `cardSlideKeyframes()`), so that two exports can
    /// sit in one module.
    public static func swiftUI(_ fits: [KeyframeFit], name: String) -> String {
        let values = swiftUIValues(name), names = swiftIdentifiers(fits.map(\.animation.keyPath))
        var properties: [String] = [], tracks: [String] = []
        for (fit, name) in zip(fits, names) {
            let a = fit.animation, p = fit.precision
            var keyframes: [String] = []
            let durations = p.durations(a.keyTimes.map { $0 * a.duration })
            for (i, f) in a.timingFunctions.enumerated() {
                keyframes.append(
                    "LinearKeyframe(\(p.value(a.values[i + 1][0])), duration: \(durations[i])\(swiftUICurve(f, p)))")
            }
            properties.append(
                "var \(name): Double = \(p.value(a.values[0][0]))  // \(swiftString(a.keyPath)): \(a.keyframeCount) keyframes, max error \(statedError(fit))"
            )
            tracks.append(
                "    KeyframeTrack(\\\(values).\(name)) {\n"
                    + keyframes.map { "        " + $0 + "\n" }.joined() + "    }")
        }
        return swiftUIFile("generated by kinema", name: name, properties: properties, tracks: tracks)
    }

    /// `NameValues` for `name` as a Swift identifier (`"card slide"` gives `CardSlideValues`).
    static func swiftUIValues(_ name: String) -> String {
        let base = swiftIdentifiers([name])[0]
        return base.prefix(1).uppercased() + base.dropFirst() + "Values"
    }

    /// A SwiftUI export's file: `// comment`, then inside `#if canImport(SwiftUI)` the struct
    /// `NameValues` of `properties` and the `@KeyframesBuilder` function `nameKeyframes()` of `tracks`.
    static func swiftUIFile(
        _ comment: String, name: String, properties: [String], tracks: [String], after: String = ""
    ) -> String {
        let values = swiftUIValues(name), builder = swiftIdentifiers([name])[0] + "Keyframes"
        return """
            // \(comment)
            #if canImport(SwiftUI)
            import SwiftUI

            struct \(values) {
                \(properties.joined(separator: "\n    "))
            }

            @available(iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1, *)
            @KeyframesBuilder<\(values)>
            func \(builder)() -> some Keyframes<\(values)> {
            \(tracks.joined(separator: "\n"))
            }
            \(after)#endif

            """
    }

    /// `, timingCurve: .bezier(…)` for a segment's timing function (nothing for a linear one).
    /// (Controls on the diagonal, as printed, are the identity: the linear curve.)
    static func swiftUICurve(_ f: CubicBezierTimingFunction, _ p: ExportPrecision) -> String {
        guard !p.isLinear(f) else { return "" }
        let (x1, y1, x2, y2) = (p.control(f.x1), p.control(f.y1), p.control(f.x2), p.control(f.y2))
        return ", timingCurve: .bezier(startControlPoint: UnitPoint(x: \(x1), y: \(y1)), "
            + "endControlPoint: UnitPoint(x: \(x2), y: \(y2)))"
    }

    /// A CSS keyframe's timing declaration for the segment it starts: none for a linear one, which
    /// takes the animation's own (`linear`).
    static func cssTiming(_ f: CubicBezierTimingFunction, _ p: ExportPrecision, separator: String = ", ") -> String {
        p.isLinear(f) ? "" : " animation-timing-function: cubic-bezier(\(p.controls(f, separator: separator)));"
    }

    /// Distinct Swift identifiers for key paths: `ball.position.x` → `ballPositionX`.
    static func swiftIdentifiers(_ keyPaths: [String]) -> [String] {
        var used = Set<String>()
        return keyPaths.map { path in
            let words = path.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
            var name = words.enumerated().map {
                $0 == 0 ? $1.prefix(1).lowercased() + $1.dropFirst() : $1.prefix(1).uppercased() + $1.dropFirst()
            }.joined()
            if name.first.map(\.isNumber) ?? true { name = "value" + name }
            var unique = name, k = 2
            while !used.insert(unique).inserted { unique = name + "\(k)"; k += 1 }
            return unique
        }
    }
}
