// Placeholder: the GraphEvents module is being built (issue 4).
public enum GraphEventsModule {}
