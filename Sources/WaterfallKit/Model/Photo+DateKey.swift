extension Photo {
    /// What date order sorts by: when taken, `YYYYMMDDhhmmss`; without EXIF, the file's modification time
    /// (UTC) in the same form, so both kinds compare.
    var dateKey: Int { taken ?? Self.calendarKey(unixSeconds: status.modified / 1_000_000_000) }

    /// `YYYYMMDDhhmmss` of a Unix time (UTC), so that file times and EXIF times compare.
    static func calendarKey(unixSeconds: Int) -> Int {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondsOfDay = unixSeconds - days * 86_400
        // Howard Hinnant's days-to-civil.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return ((year * 100 + month) * 100 + day) * 1_000_000
            + (secondsOfDay / 3600) * 10_000 + (secondsOfDay / 60 % 60) * 100 + secondsOfDay % 60
    }
}
