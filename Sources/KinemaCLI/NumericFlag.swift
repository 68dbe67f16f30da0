import ArgumentParser

/// Numeric flags declared once each: a case per flag, named as the flag (`origamiTension` is
/// `--origami-tension`), with the rule its value obeys. The option itself (its help) is the
/// `ParsableArguments` property of the same name, which `FlagValues(reading:)` reads by name; a
/// test checks that every option has its case and every case its option. Parsing, validation and a
/// sweep's setters follow from the two.
protocol NumericFlag: RawRepresentable, CaseIterable, Sendable where RawValue == Int, AllCases == [Self] {
    /// The rule its value is checked against.
    var rule: NumberRule { get }
}

extension NumericFlag {
    /// `--origami-tension`.
    var name: String { flagName(forProperty: "\(self)") }

    /// The bits of `flags` in a `FlagValues` given-mask.
    static func mask(_ flags: Self...) -> UInt32 { mask(flags) }
    static func mask(_ flags: some Sequence<Self>) -> UInt32 { flags.reduce(0) { $0 | 1 << $1.rawValue } }

    /// The flag of property `property` (`origamiTension`), if it is one.
    init?(property: String) {
        guard let flag = Self.allCases.first(where: { "\($0)" == property }) else { return nil }
        self = flag
    }
}

/// `origamiTension` → `--origami-tension`.
func flagName(forProperty property: String) -> String {
    var flag = "--"
    for character in property {
        if character.isUppercase { flag += "-" + character.lowercased() } else { flag.append(character) }
    }
    return flag
}

/// The values of one set of numeric flags, which a sweep's rows set without argument-parser's
/// property wrappers: a lane per flag and a bit per flag given, so setting one allocates nothing.
struct FlagValues<Flag: NumericFlag>: Sendable {
    private var numbers = SIMD32<Double>()
    /// Bit `rawValue` set for each flag given.
    private(set) var given: UInt32 = 0

    subscript(flag: Flag) -> Double? {
        get { given & 1 << flag.rawValue != 0 ? numbers[flag.rawValue] : nil }
        set {
            numbers[flag.rawValue] = newValue ?? 0
            given = newValue == nil ? given & ~(1 << flag.rawValue) : given | 1 << flag.rawValue
        }
    }

    /// The options of `options` that are flags of the set, read by their properties' names.
    init(reading options: some ParsableArguments) {
        for child in Mirror(reflecting: options).children {
            // The wrapper's storage is the property's name with a leading underscore.
            guard let option = child.value as? Option<Double?>, let label = child.label,
                let flag = Flag(property: String(label.dropFirst()))
            else { continue }
            self[flag] = option.wrappedValue
        }
    }

    /// Checks the flags given among `bits` against their rules, in raw-value order (a sweep checks
    /// every row: only the flags given, no array built).
    func check(_ bits: UInt32 = .max) throws {
        var remaining = given & bits
        while remaining != 0 {
            let raw = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            // The name is built only for the error: `"\(flag)"` reflects on the case (about a µs).
            guard let flag = Flag(rawValue: raw), !flag.rule.accepts(numbers[raw]) else { continue }
            throw CLIError(flag: flag.name, value: "\(numbers[raw])", rule: flag.rule.text)
        }
    }

    /// The flags given among `bits`, in raw-value order.
    func givenFlags(among bits: UInt32 = .max) -> [Flag] {
        Flag.allCases.filter { bits & given & 1 << $0.rawValue != 0 }
    }
}
