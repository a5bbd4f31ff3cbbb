// Placeholder: the TimeZones module is being built (issue 3).
public enum TimeZonesModule {}
