using Microsoft.Extensions.Logging;

namespace BLite.Core.Diagnostics;

/// <summary>
/// The engine's log messages, source-generated (no formatting or boxing unless the level is
/// enabled). Event ids are stable: 1xxx lifecycle, 2xxx commits, 3xxx failures.
/// </summary>
internal static partial class EngineLog
{
    [LoggerMessage(EventId = 1001, EventName = "DatabaseOpened", Level = LogLevel.Information,
        Message = "Opened BLite database {Path} (durability {Durability}, page size {PageSize} bytes) in {ElapsedMilliseconds:F1} ms")]
    public static partial void DatabaseOpened(this ILogger logger, string path, Durability durability, int pageSize, double elapsedMilliseconds);

    [LoggerMessage(EventId = 1002, EventName = "Recovered", Level = LogLevel.Information,
        Message = "Recovered {Transactions} committed transactions ({Frames} write-ahead log frames) into {Path}")]
    public static partial void Recovered(this ILogger logger, string path, long transactions, int frames);

    [LoggerMessage(EventId = 1003, EventName = "CheckpointCompleted", Level = LogLevel.Debug,
        Message = "Checkpoint of {Path} copied {Pages} pages from the write-ahead log in {ElapsedMilliseconds:F1} ms")]
    public static partial void CheckpointCompleted(this ILogger logger, string path, int pages, double elapsedMilliseconds);

    [LoggerMessage(EventId = 1004, EventName = "DatabaseClosed", Level = LogLevel.Debug,
        Message = "Closed BLite database {Path}")]
    public static partial void DatabaseClosed(this ILogger logger, string path);

    [LoggerMessage(EventId = 2001, EventName = "SlowCommit", Level = LogLevel.Warning,
        Message = "Slow commit on {Path}: {ElapsedMilliseconds:F1} ms (threshold {ThresholdMilliseconds:F0} ms)")]
    public static partial void SlowCommit(this ILogger logger, string path, double elapsedMilliseconds, double thresholdMilliseconds);

    [LoggerMessage(EventId = 3001, EventName = "CorruptionDetected", Level = LogLevel.Error,
        Message = "Corruption detected in {Path}: {Detail}")]
    public static partial void CorruptionDetected(this ILogger logger, string path, string detail, Exception exception);

    [LoggerMessage(EventId = 3002, EventName = "WritesRefused", Level = LogLevel.Error,
        Message = "{Path} refuses writes until it is reopened, after: {Reason}")]
    public static partial void WritesRefused(this ILogger logger, string path, string reason, Exception exception);
}
