import CGSL

/// A GSL status code other than `GSL_SUCCESS`, as a Swift error (GSL's abort handler is off).
public struct GSLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// GSL's status code (`GSL_EMAXITER`, `GSL_ENOPROG`, `GSL_EBADFUNC`, …).
    public let code: Int32
    /// The GSL function that returned it.
    public let function: String
    /// Simulated time when it happened.
    public let time: Double

    public var description: String {
        "GSL \(function) failed at t = \(time) s: \(String(cString: gsl_strerror(code))) (GSL status \(code))."
    }

    /// Turns GSL's default error handler (print and abort) off, once per process.
    static let abortHandlerDisabled: Void = { kinema_gsl_disable_abort() }()
}
