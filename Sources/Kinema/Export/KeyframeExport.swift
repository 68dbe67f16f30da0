/// Text exports of baked keyframes: CAKeyframeAnimation-shaped JSON, CSS, Lottie, Swift source.
public enum KeyframeExport {
    /// A number in shortest round-trip form (JSON has no NaN or ∞: those become null), zero
    /// without its sign (`-0.0`, which rounding leaves, means nothing to a player).
    package static func number(_ x: Double) -> String { x.isFinite ? "\(x == 0 ? 0 : x)" : "null" }

    static func value(_ components: [Double]) -> String {
        components.count == 1 ? number(components[0]) : "[" + components.map(number).joined(separator: ", ") + "]"
    }

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

    /// `{"keyPath", "duration", "calculationMode", "values", "keyTimes", "timingFunctions",
    /// "keyframeCount", "maxError"}`.
    public static func json(_ fit: KeyframeFit) -> String {
        let a = fit.animation
        return """
            {
              "keyPath": \(string(a.keyPath)),
              "duration": \(number(a.duration)),
              "calculationMode": \(string(a.calculationMode.rawValue)),
              "values": [\(a.values.map(value).joined(separator: ", "))],
              "keyTimes": [\(a.keyTimes.map(number).joined(separator: ", "))],
              "timingFunctions": [\(a.timingFunctions.map { "[\(number($0.x1)), \(number($0.y1)), \(number($0.x2)), \(number($0.y2))]" }.joined(separator: ", "))],
              "keyframeCount": \(a.keyframeCount),
              "maxError": \(number(fit.maxError))
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
    public static func cssIdentifier(_ name: String) -> String {
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
        let a = fit.animation, property = cssProperty(a.keyPath), name = cssIdentifier(name)
        var text = "/* \(a.keyframeCount) keyframes, max error \(fit.maxError); duration \(a.duration)s */\n"
        text += "@property \(property) { syntax: '<number>'; inherits: false; initial-value: 0; }\n"
        text += "@keyframes \(name) {\n"
        for (i, keyTime) in a.keyTimes.enumerated() {
            var line = "  \(number(keyTime * 100))% { \(property): \(number(a.values[i][0]));"
            if i < a.timingFunctions.count {
                let f = a.timingFunctions[i]
                line +=
                    " animation-timing-function: cubic-bezier(\(number(f.x1)), \(number(f.y1)), \(number(f.x2)), \(number(f.y2)));"
            }
            text += line + " }\n"
        }
        text += "}\n"
        text += ".\(name) { animation: \(name) \(number(a.duration))s linear both; }\n"
        return text
    }

    /// The motion as a `linear()` easing over the track's own duration: a `@keyframes NAME-linear`
    /// from its first value to its last and a class `.NAME-linear` that plays it with the easing
    /// (the custom property registered by `css`). `name` is escaped as a CSS identifier.
    public static func cssLinear(_ easing: CSSLinearEasing, _ fit: KeyframeFit, name: String = "kinema") -> String {
        let a = fit.animation, property = cssProperty(a.keyPath), name = cssIdentifier(name + "-linear")
        return """
            /* linear(): \(easing.stops.count) points, max error \(easing.maxError) of the travel */
            @keyframes \(name) { from { \(property): \(number(a.values[0][0])); } to { \(property): \(number(a.values[a.values.count - 1][0])); } }
            .\(name) { animation: \(name) \(number(a.duration))s \(easing.css) both; }

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
        let a = fit.animation
        var frames: [String] = []
        for (i, keyTime) in a.keyTimes.enumerated() {
            var entry =
                "{\"t\": \(number(keyTime * a.duration * frameRate)), \"s\": [\(a.values[i].map(number).joined(separator: ", "))]"
            if i < a.timingFunctions.count {
                let f = a.timingFunctions[i]
                entry +=
                    ", \"o\": {\"x\": [\(number(f.x1))], \"y\": [\(number(f.y1))]}, \"i\": {\"x\": [\(number(f.x2))], \"y\": [\(number(f.y2))]}"
            }
            frames.append(entry + "}")
        }
        return "{\"a\": 1, \"k\": [\n  " + frames.joined(separator: ",\n  ") + "\n]}\n"
    }

    /// Swift source that builds the `CAKeyframeAnimation` (inside `#if canImport(QuartzCore)`).
    public static func swift(_ fit: KeyframeFit, name: String = "animation") -> String {
        let a = fit.animation, name = swiftIdentifiers([name])[0]
        let functions = a.timingFunctions.map {
            "CAMediaTimingFunction(controlPoints: \(Float($0.x1)), \(Float($0.y1)), \(Float($0.x2)), \(Float($0.y2)))"
        }
        return """
            // \(a.keyframeCount) keyframes, max error \(fit.maxError) (generated by kinema)
            #if canImport(QuartzCore)
            import QuartzCore

            func make\(name.prefix(1).uppercased() + name.dropFirst())() -> CAKeyframeAnimation {
                let \(name) = CAKeyframeAnimation(keyPath: \(swiftString(a.keyPath)))
                \(name).duration = \(number(a.duration))
                \(name).calculationMode = .linear
                \(name).values = [\(a.values.map { number($0[0]) }.joined(separator: ", "))]
                \(name).keyTimes = [\(a.keyTimes.map(number).joined(separator: ", "))]
                \(name).timingFunctions = [
                    \(functions.joined(separator: ",\n        "))
                ]
                return \(name)
            }
            #endif

            """
    }

    /// Swift source for SwiftUI keyframes (inside `#if canImport(SwiftUI)`): one `Double` property
    /// per track in `KinemaValues` and one `KeyframeTrack` of `CubicKeyframe`s each, in one
    /// `@KeyframesBuilder` function `kinemaKeyframes()` for `keyframeAnimator`. Each segment's end
    /// velocities come from its bezier's end slopes.
    public static func swiftUI(_ fits: [KeyframeFit]) -> String { swiftUI(fits, name: "kinema") }

    /// The same for one fit.
    public static func swiftUI(_ fit: KeyframeFit, name: String = "kinema") -> String { swiftUI([fit], name: name) }

    /// The same, declaring `NameValues` and `nameKeyframes()` (`name` as a Swift identifier:
    /// `"card slide"` gives `CardSlideValues` and `cardSlideKeyframes()`), so that two exports can
    /// sit in one module.
    public static func swiftUI(_ fits: [KeyframeFit], name: String) -> String {
        let base = swiftIdentifiers([name])[0]
        let values = base.prefix(1).uppercased() + base.dropFirst() + "Values", builder = base + "Keyframes"
        let names = swiftIdentifiers(fits.map(\.animation.keyPath))
        var properties: [String] = [], tracks: [String] = []
        for (fit, name) in zip(fits, names) {
            let a = fit.animation
            var keyframes: [String] = []
            for i in 0..<a.timingFunctions.count {
                let f = a.timingFunctions[i]
                let dt = (a.keyTimes[i + 1] - a.keyTimes[i]) * a.duration
                let dv = a.values[i + 1][0] - a.values[i][0]
                let start = f.x1 > 0 ? f.y1 / f.x1 * dv / dt : 0
                let end = f.x2 < 1 ? (1 - f.y2) / (1 - f.x2) * dv / dt : 0
                keyframes.append(
                    "CubicKeyframe(\(number(a.values[i + 1][0])), duration: \(number(dt)), startVelocity: \(number(start)), endVelocity: \(number(end)))"
                )
            }
            properties.append(
                "var \(name): Double = \(number(a.values[0][0]))  // \(swiftString(a.keyPath)): \(a.keyframeCount) keyframes, max error \(fit.maxError)"
            )
            tracks.append(
                "    KeyframeTrack(\\\(values).\(name)) {\n"
                    + keyframes.map { "        " + $0 + "\n" }.joined() + "    }")
        }
        return """
            // generated by kinema
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
            #endif

            """
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
