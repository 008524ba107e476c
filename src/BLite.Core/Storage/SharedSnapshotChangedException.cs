namespace BLite.Core.Storage;

/// <summary>
/// A read-only view's snapshot was invalidated by a writer in another engine or process (a
/// checkpoint replaced its pages, or the log restarted): opening again reads the new state.
/// Internal so pollers can tell it from real errors; callers see a <see cref="BLiteException"/>.
/// </summary>
internal sealed class SharedSnapshotChangedException(string message) : BLiteException(message);
