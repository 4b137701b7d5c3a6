/// When a photo was taken, as its camera's clock said: EXIF DateTimeOriginal, with the UTC offset from
/// OffsetTimeOriginal when the camera wrote one. A calendar value, not an instant: without an offset it
/// cannot be placed on a timeline, and the page shows it as the photographer saw it.
public struct ExifDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// Minutes east of UTC ("+02:00" is 120), when known.
    public var utcOffsetMinutes: Int?

    /// Parses exactly "YYYY:MM:DD HH:MM:SS" (EXIF's form) with a real calendar date and a time of day.
    /// Anything else is nil, including the all-blanks and all-zeros forms cameras write for "unknown".
    public init?(exif text: String, offset: String? = nil) {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[4] == UInt8(ascii: ":"), bytes[7] == UInt8(ascii: ":"),
              bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
              let day = Self.number(bytes[8..<10]), let hour = Self.number(bytes[11..<13]),
              let minute = Self.number(bytes[14..<16]), let second = Self.number(bytes[17..<19]),
              year >= 1, (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                  utcOffsetMinutes: offset.flatMap(Self.offsetMinutes))
    }

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, utcOffsetMinutes: Int? = nil) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// "2024-05-17 08:30:12".
    public var description: String { format(separator: " ") }

    /// For `<time datetime="…">`: "2024-05-17T08:30:12+02:00", or without the offset when unknown.
    public var iso8601: String {
        let text = format(separator: "T")
        guard let offset = utcOffsetMinutes else { return text }
        return text + (offset < 0 ? "-" : "+") + Self.digits(abs(offset) / 60, 2) + ":" + Self.digits(abs(offset) % 60, 2)
    }

    /// By the clock reading; the offset (unknown first) only breaks ties, so that equal means identical.
    public static func < (a: ExifDateTime, b: ExifDateTime) -> Bool {
        let left = [a.year, a.month, a.day, a.hour, a.minute, a.second]
        let right = [b.year, b.month, b.day, b.hour, b.minute, b.second]
        if left != right { return left.lexicographicallyPrecedes(right) }
        return (a.utcOffsetMinutes ?? Int.min) < (b.utcOffsetMinutes ?? Int.min)
    }

    /// "+HH:MM" or "-HH:MM" (EXIF 2.31's OffsetTime form), at most 18 hours either way.
    static func offsetMinutes(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              bytes[3] == UInt8(ascii: ":"),
              let hours = number(bytes[1..<3]), let minutes = number(bytes[4..<6]), minutes < 60
        else { return nil }
        let total = hours * 60 + minutes
        guard total <= 18 * 60 else { return nil }
        return bytes[0] == UInt8(ascii: "-") ? -total : total
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private func format(separator: String) -> String {
        "\(Self.digits(year, 4))-\(Self.digits(month, 2))-\(Self.digits(day, 2))\(separator)"
            + "\(Self.digits(hour, 2)):\(Self.digits(minute, 2)):\(Self.digits(second, 2))"
    }

    /// ASCII digits only: no sign, no spaces, none of the other things Int(_:) accepts.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
