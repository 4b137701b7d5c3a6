extension ArgumentScanner {
    /// A finite decimal number greater than `bound` and at most `limit`.
    mutating func number(above bound: Double, atMost limit: Double) throws -> Double {
        let value = try decimal()
        guard value > bound else { throw UsageError("\(option) must be greater than \(bound.readable), got \(value.readable)", command: command) }
        return try checked(value, atMost: limit)
    }

    /// A finite decimal number in `range`.
    mutating func number(in range: ClosedRange<Double>) throws -> Double {
        let value = try decimal()
        guard value >= range.lowerBound else {
            throw UsageError("\(option) must be at least \(range.lowerBound.readable), got \(value.readable)", command: command)
        }
        return try checked(value, atMost: range.upperBound)
    }

    private func checked(_ value: Double, atMost limit: Double) throws -> Double {
        guard value <= limit else { throw UsageError("\(option) must be at most \(limit.readable), got \(value.readable)", command: command) }
        return value
    }

    private mutating func decimal() throws -> Double {
        let text = try value()
        guard let value = Double(text), value.isFinite else {
            throw UsageError("\(option) needs a number (got '\(text)')", command: command)
        }
        return value
    }

    /// `T,L,B,R`, or one number for all four sides, each in `range`.
    mutating func insets(in range: ClosedRange<Double>) throws -> EdgeInsets {
        let text = try value()
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.filter { $0 != " " }) }
        guard parts.count == 1 || parts.count == 4, parts.allSatisfy({ $0.map { range.contains($0) } ?? false }) else {
            throw UsageError("\(option) needs four numbers from \(range.lowerBound.readable) to \(range.upperBound.readable) "
                + "as T,L,B,R, or one for all sides (got '\(text)')", command: command)
        }
        let values = parts.map { $0! }
        return values.count == 1 ? EdgeInsets(all: values[0])
            : EdgeInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
    }

    mutating func placement() throws -> PlacementPolicy {
        let text = try value()
        guard let placement = PlacementPolicy.named(text) else {
            throw UsageError("\(option) must be 'balanced', 'shortest' or 'round-robin' (got '\(text)')", command: command)
        }
        return placement
    }

    mutating func bottom() throws -> SiteConfiguration.BottomSetting {
        let text = try value()
        guard let bottom = SiteConfiguration.BottomSetting(rawValue: text) else {
            throw UsageError("\(option) must be 'natural' or 'flush' (got '\(text)')", command: command)
        }
        return bottom
    }
}
