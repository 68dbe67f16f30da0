#if canImport(Foundation)
    import Foundation

    // `localizedDescription`, which apps show in alerts and logs, is the message itself rather than
    // "The operation could not be completed. (Kinema.KinemaError error 1.)".

    extension KinemaError: LocalizedError {
        public var errorDescription: String? { description }
    }

    extension SimulationError: LocalizedError {
        public var errorDescription: String? { description }
    }
#endif
