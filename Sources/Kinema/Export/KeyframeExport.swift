/// Text exports of baked keyframes: CAKeyframeAnimation-shaped JSON, CSS, Lottie, Swift source.
public enum KeyframeExport {
    /// A number in shortest round-trip form (JSON has no NaN or ∞: those become null).
    package static func number(_ x: Double) -> String { x.isFinite ? "\(x)" : "null" }

    static func value(_ components: [Double]) -> String {
        components.count == 1 ? number(components[0]) : "[" + components.map(number).joined(separator: ", ") + "]"
    }

    /// A JSON string literal.
    package static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default:
                if scalar.value < 0x20 { result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16) } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result + "\""
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
        "--" + keyPath.map { $0.isLetter || $0.isNumber || $0 == "-" ? String($0) : "-" }.joined()
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
            } else if (1...0x1F).contains(c.value) || c.value == 0x7F || (i == 0 && digit) || (i == 1 && digit && scalars[0] == "-") {
                text += "\\" + String(c.value, radix: 16) + " "
            } else if i == 0 && c == "-" && scalars.count == 1 {
                text += "\\-"
            } else if c.value >= 0x80 || c == "-" || c == "_" || digit || ("a"..."z").contains(c) || ("A"..."Z").contains(c) {
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
                line += " animation-timing-function: cubic-bezier(\(number(f.x1)), \(number(f.y1)), \(number(f.x2)), \(number(f.y2)));"
            }
            text += line + " }\n"
        }
        text += "}\n"
        text += ".\(name) { animation: \(name) \(number(a.duration))s linear both; }\n"
        return text
    }

    /// A CSS `linear()` easing that follows `curve` through `count` points (t = i/(count−1)).
    public static func cssLinearEasing(_ curve: (Double) -> Double, count: Int = 101) -> String {
        let points = (0..<count).map { i -> String in
            let t = Double(i) / Double(count - 1)
            return "\(number(curve(t))) \(number(t * 100))%"
        }
        return "linear(" + points.joined(separator: ", ") + ")"
    }

    /// Lottie keyframes (`"k"` of an animated property): `t` in frames at `frameRate`, `s` the
    /// value, `o`/`i` the out and in tangents (the segment's bezier controls).
    public static func lottie(_ fit: KeyframeFit, frameRate: Double = 60) -> String {
        let a = fit.animation
        var frames: [String] = []
        for (i, keyTime) in a.keyTimes.enumerated() {
            var entry = "{\"t\": \(number(keyTime * a.duration * frameRate)), \"s\": [\(a.values[i].map(number).joined(separator: ", "))]"
            if i < a.timingFunctions.count {
                let f = a.timingFunctions[i]
                entry += ", \"o\": {\"x\": [\(number(f.x1))], \"y\": [\(number(f.y1))]}, \"i\": {\"x\": [\(number(f.x2))], \"y\": [\(number(f.y2))]}"
            }
            frames.append(entry + "}")
        }
        return "{\"a\": 1, \"k\": [\n  " + frames.joined(separator: ",\n  ") + "\n]}\n"
    }

    /// Swift source that builds the `CAKeyframeAnimation` (inside `#if canImport(QuartzCore)`).
    public static func swift(_ fit: KeyframeFit, name: String = "animation") -> String {
        let a = fit.animation
        let functions = a.timingFunctions.map {
            "CAMediaTimingFunction(controlPoints: \(Float($0.x1)), \(Float($0.y1)), \(Float($0.x2)), \(Float($0.y2)))"
        }
        return """
            // \(a.keyframeCount) keyframes, max error \(fit.maxError) (generated by kinema)
            #if canImport(QuartzCore)
            import QuartzCore

            func make\(name.prefix(1).uppercased() + name.dropFirst())() -> CAKeyframeAnimation {
                let \(name) = CAKeyframeAnimation(keyPath: \(string(a.keyPath)))
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

    /// Swift source for a SwiftUI `KeyframeTrack` of `CubicKeyframe`s (inside
    /// `#if canImport(SwiftUI)`). Each segment's end velocities come from its bezier's end slopes.
    public static func swiftUI(_ fit: KeyframeFit, property: String = "value") -> String {
        let a = fit.animation
        var keyframes: [String] = []
        for i in 0..<a.timingFunctions.count {
            let f = a.timingFunctions[i]
            let dt = (a.keyTimes[i + 1] - a.keyTimes[i]) * a.duration
            let dv = a.values[i + 1][0] - a.values[i][0]
            let start = f.x1 > 0 ? f.y1 / f.x1 * dv / dt : 0
            let end = f.x2 < 1 ? (1 - f.y2) / (1 - f.x2) * dv / dt : 0
            keyframes.append("CubicKeyframe(\(number(a.values[i + 1][0])), duration: \(number(dt)), startVelocity: \(number(start)), endVelocity: \(number(end)))")
        }
        return """
            // \(a.keyframeCount) keyframes, max error \(fit.maxError) (generated by kinema)
            #if canImport(SwiftUI)
            import SwiftUI

            struct KinemaValues { var \(property): Double = \(number(a.values[0][0])) }

            @available(iOS 17, macOS 14, *)
            func kinemaTrack() -> some Keyframes<KinemaValues> {
                KeyframeTrack(\\KinemaValues.\(property)) {
                    \(keyframes.joined(separator: "\n            "))
                }
            }
            #endif

            """
    }
}
