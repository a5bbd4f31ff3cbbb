// Placeholder until the ICalendar module lands in this commit series.
public enum ICalendarModule {}
