using System.Diagnostics.Metrics;
using BenchmarkDotNet.Attributes;
using BLite.Benchmarks.Engines.BLiteEngine;
using BLite.Benchmarks.Workload;
using Microsoft.Extensions.Logging;

namespace BLite.Benchmarks.Diagnostics;

/// <summary>
/// What logging and metrics cost on the hot path: FindById and a single insert (OS-buffered
/// durability, so a flush does not hide the difference), side by side without any listener and
/// with logging enabled at Information plus every BLite instrument collected by a MeterListener.
/// </summary>
[MemoryDiagnoser]
public class ObservabilityOverheadBenchmarks
{
    private const int Documents = 1_000;

    private readonly List<ObjectId> _ids = [];
    private string _folder = "";
    private BenchOrdersContext? _context;
    private MeterListener? _listener;
    private OrderGenerator _generator = new();
    private long _measurements;
    private int _next;

    /// <summary>False: no logger, no listener. True: logging at Information and all metrics collected.</summary>
    [Params(false, true)]
    public bool Observed { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        _folder = Path.Combine(Path.GetTempPath(), "blite-bench-observability-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(_folder);
        var options = new DocumentDbContextOptions { Path = Path.Combine(_folder, "orders.blite"), Durability = Durability.Normal };
        if (Observed)
        {
            options.LoggerFactory = new InformationSink();
            _listener = new MeterListener
            {
                InstrumentPublished = (instrument, listener) =>
                {
                    if (instrument.Meter.Name == "BLite")
                    {
                        listener.EnableMeasurementEvents(instrument);
                    }
                },
            };
            _listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref _measurements, value));
            _listener.SetMeasurementEventCallback<int>((_, value, _, _) => Interlocked.Add(ref _measurements, value));
            _listener.SetMeasurementEventCallback<double>((_, _, _, _) => Interlocked.Increment(ref _measurements));
            _listener.Start();
        }

        _context = new BenchOrdersContext(options);
        _generator = new OrderGenerator(7);
        foreach (var order in _generator.Generate(Documents))
        {
            _ids.Add(_context.Orders.Insert(order));
        }

        _context.Database.Checkpoint();
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _context?.Dispose();
        _listener?.Dispose();
        Directory.Delete(_folder, recursive: true);
    }

    [Benchmark]
    public CustomerOrder? FindById() => _context!.Orders.FindById(_ids[_next++ % _ids.Count]);

    [Benchmark]
    public ObjectId SingleInsert()
    {
        var order = _generator.Next();
        order.Id = default;
        return _context!.Orders.Insert(order);
    }

    /// <summary>A logger factory whose loggers are enabled from Information up and discard what they get, as a filtered provider would after formatting.</summary>
    private sealed class InformationSink : ILoggerFactory, ILogger
    {
        public ILogger CreateLogger(string categoryName) => this;

        public void AddProvider(ILoggerProvider provider) => throw new NotSupportedException();

        public void Dispose()
        {
        }

        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Information;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            if (IsEnabled(logLevel))
            {
                _ = formatter(state, exception);
            }
        }
    }
}
