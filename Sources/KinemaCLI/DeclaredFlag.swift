import ArgumentParser

/// Flags declared once each: a case per option, named as the option's property (`origamiTension`
/// is `--origami-tension`), with what its value is and the rule it obeys. The option itself (its
/// type, default and help) is the `ParsableArguments` property of the same name, which
/// `FlagValues(reading:)` reads by name; a test checks that every option has its case and every
/// case its option. Parsing, validation and a sweep's setters follow from the two.
protocol DeclaredFlag: RawRepresentable, CaseIterable, Sendable where RawValue == Int, AllCases == [Self] {
    var kind: FlagKind { get }
    /// The cases' names, made once (`"\(flag)"` reflects on the case: about a µs each).
    static var propertyNames: [String] { get }
}

/// What a flag's option holds, and the rule it is checked against.
enum FlagKind {
    /// A `Double`.
    case number(NumberRule)
    /// An `Int`, checked as a number against the rule.
    case integer(NumberRule)
    /// A `UInt64`, any.
    case unsigned
    /// Given or not (`--spring`).
    case presence
    /// Text, checked where it is read (`--integrator`'s name, `--scene`'s path).
    case text

    /// A number or a whole number (a sweep sets it in a row without parsing).
    var isNumeric: Bool {
        switch self {
        case .number, .integer, .unsigned: return true
        case .presence, .text: return false
        }
    }

    /// An integer or an unsigned: a sweep's range of it gives whole numbers.
    var isWhole: Bool {
        switch self {
        case .integer, .unsigned: return true
        case .number, .presence, .text: return false
        }
    }
}

extension DeclaredFlag {
    /// `--origami-tension`.
    var name: String { flagName(forProperty: "\(self)") }

    /// The bits of `flags` in a `FlagValues` given-mask.
    static func mask(_ flags: Self...) -> UInt32 { mask(flags) }
    static func mask(_ flags: some Sequence<Self>) -> UInt32 { flags.reduce(0) { $0 | 1 << $1.rawValue } }

    /// The flag of property `property` (`origamiTension`), if it is one.
    init?(property: String) {
        guard let index = Self.propertyNames.firstIndex(of: property) else { return nil }
        self = Self.allCases[index]
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

/// The values of one set of flags, which a sweep's rows set without argument-parser's property
/// wrappers: a lane per number and a bit per flag given, so setting a number allocates nothing.
struct FlagValues<Key: DeclaredFlag>: Sendable {
    /// Each number's bits: a `Double`'s, an `Int`'s (two's complement) or a `UInt64`.
    private var numbers = SIMD32<UInt64>()
    /// Bit `rawValue` set for each flag given.
    private(set) var given: UInt32 = 0
    /// The text flags' values by raw value (empty until one is set).
    private var texts: [String?] = []

    /// A number flag's value.
    subscript(flag: Key) -> Double? {
        get { isGiven(flag) ? Double(bitPattern: numbers[flag.rawValue]) : nil }
        set { setBits(flag, newValue?.bitPattern) }
    }

    /// A whole-number flag's value.
    func whole<T: FixedWidthInteger>(_ flag: Key, as _: T.Type = T.self) -> T? {
        isGiven(flag) ? T(truncatingIfNeeded: numbers[flag.rawValue]) : nil
    }

    /// A text flag's value.
    subscript(text flag: Key) -> String? {
        get { texts.indices.contains(flag.rawValue) ? texts[flag.rawValue] : nil }
        set {
            if texts.isEmpty { texts = Array(repeating: nil, count: Key.allCases.count) }
            texts[flag.rawValue] = newValue
            setBits(flag, newValue == nil ? nil : 0)
        }
    }

    func isGiven(_ flag: Key) -> Bool { given & 1 << flag.rawValue != 0 }

    /// Sets a number or whole-number flag to `value` (a sweep's row); false, leaving it as it
    /// was, when the flag's type does not hold `value` exactly.
    mutating func set(_ flag: Key, to value: Double) -> Bool {
        switch flag.kind {
        case .number: self[flag] = value
        case .integer:
            guard let whole = Int64(exactly: value) else { return false }
            setBits(flag, UInt64(bitPattern: whole))
        case .unsigned:
            guard let whole = UInt64(exactly: value) else { return false }
            setBits(flag, whole)
        case .presence, .text: return false
        }
        return true
    }

    /// Gives a presence flag, or takes it back.
    mutating func setPresence(_ flag: Key, given: Bool) { setBits(flag, given ? 1 : nil) }

    private mutating func setBits(_ flag: Key, _ bits: UInt64?) {
        numbers[flag.rawValue] = bits ?? 0
        given = bits == nil ? given & ~(1 << flag.rawValue) : given | 1 << flag.rawValue
    }

    /// No flag given.
    init() {}

    /// The options of `options` that are flags of the set, read by their properties' names.
    init(reading options: some ParsableArguments) {
        for child in Mirror(reflecting: options).children {
            // The wrapper's storage is the property's name with a leading underscore.
            guard let label = child.label, let flag = Key(property: String(label.dropFirst())) else { continue }
            switch child.value {
            case let option as Option<Double?>: self[flag] = option.wrappedValue
            case let option as Option<Int?>: setBits(flag, option.wrappedValue.map { UInt64(bitPattern: Int64($0)) })
            case let option as Option<UInt64?>: setBits(flag, option.wrappedValue)
            case let option as Flag<Bool>: setBits(flag, option.wrappedValue ? 1 : nil)
            case let option as Option<String?>: self[text: flag] = option.wrappedValue
            case let option as Option<String>: self[text: flag] = option.wrappedValue
            default: continue
            }
        }
    }

    /// Checks the number flags given among `bits` against their rules, in raw-value order (a sweep
    /// checks every row: only the flags given, no array built).
    func check(_ bits: UInt32 = .max) throws {
        var remaining = given & bits
        while remaining != 0 {
            let raw = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            // The name is built only for the error: `"\(flag)"` reflects on the case (about a µs).
            guard let flag = Key(rawValue: raw) else { continue }
            switch flag.kind {
            case .number(let rule) where !rule.accepts(Double(bitPattern: numbers[raw])):
                throw CLIError(flag: flag.name, value: "\(Double(bitPattern: numbers[raw]))", rule: rule.text)
            case .integer(let rule) where !rule.accepts(Double(Int64(bitPattern: numbers[raw]))):
                throw CLIError(flag: flag.name, value: "\(Int64(bitPattern: numbers[raw]))", rule: rule.text)
            default: continue
            }
        }
    }

    /// The flags given among `bits`, in raw-value order.
    func givenFlags(among bits: UInt32 = .max) -> [Key] {
        Key.allCases.filter { bits & given & 1 << $0.rawValue != 0 }
    }
}
