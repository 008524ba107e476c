using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace BLite.Tests.Diagnostics;

/// <summary>Keeps every log entry written through it, at every level.</summary>
internal sealed class RecordingLoggerFactory : ILoggerFactory
{
    public ConcurrentQueue<LogEntry> Entries { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void AddProvider(ILoggerProvider provider) => throw new NotSupportedException();

    public void Dispose()
    {
    }

    public IReadOnlyList<LogEntry> Named(string eventName) => Entries.Where(e => e.EventName == eventName).ToList();

    internal sealed record LogEntry(string Category, LogLevel Level, string? EventName, string Message, Exception? Exception);

    private sealed class Logger(RecordingLoggerFactory owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            owner.Entries.Enqueue(new LogEntry(category, logLevel, eventId.Name, formatter(state, exception), exception));
    }
}
