using BLite.Core.Storage.Devices;

namespace BLite.Core.Tests.Storage.Faults;

/// <summary>
/// An in-memory device that remembers which bytes are durable. Writes land in the visible content
/// at once but stay "pending" until a flush; after a power loss
/// (<see cref="FaultInjector.CutPower"/> or <see cref="FaultInjector.PowerLossAtOperation"/>),
/// <see cref="SurvivingContent"/> decides the fate of each pending write independently — kept,
/// dropped, or torn at 512-byte sector granularity — which models a disk and OS cache that may
/// persist unflushed writes partially and in any order.
/// </summary>
public sealed class FaultInjectingDevice : IStorageDevice
{
    private const int SectorSize = 512;

    private readonly FaultInjector _injector;
    private readonly MemoryDevice _visible;
    private readonly MemoryDevice _durable;
    private readonly List<PendingOperation> _pending = [];
    private readonly Lock _sync = new();

    public FaultInjectingDevice(FaultInjector injector, string name)
        : this(injector, name, ReadOnlySpan<byte>.Empty)
    {
    }

    /// <summary>A device whose initial, already durable, content is <paramref name="durableContent"/>.</summary>
    public FaultInjectingDevice(FaultInjector injector, string name, ReadOnlySpan<byte> durableContent)
    {
        ArgumentNullException.ThrowIfNull(injector);
        _injector = injector;
        Name = name;
        _visible = new MemoryDevice(name, durableContent);
        _durable = new MemoryDevice(name, durableContent);
    }

    public string Name { get; }

    public long Length => _visible.Length;

    /// <summary>Writes and resizes issued since the last completed flush.</summary>
    public int PendingOperations
    {
        get
        {
            lock (_sync)
            {
                return _pending.Count;
            }
        }
    }

    /// <summary>The content as the process sees it, flushed or not (what survives a process kill).</summary>
    public byte[] VisibleContent() => _visible.ToArray();

    /// <summary>
    /// The content after a power loss: the durable bytes plus, for each pending write in issue
    /// order, a random fate drawn from <paramref name="random"/>.
    /// </summary>
    public byte[] SurvivingContent(Random random)
    {
        ArgumentNullException.ThrowIfNull(random);
        lock (_sync)
        {
            var survivor = new MemoryDevice(Name, _durable.ToArray());
            foreach (var operation in _pending)
            {
                var fate = random.Next(3);
                if (operation.Data is null)
                {
                    if (fate != 0)
                    {
                        survivor.SetLength(operation.Offset);
                    }
                }
                else if (fate == 1)
                {
                    survivor.Write(operation.Offset, operation.Data);
                }
                else if (fate == 2)
                {
                    ApplyTorn(survivor, operation, random);
                }
            }

            return survivor.ToArray();
        }
    }

    public int Read(long offset, Span<byte> destination)
    {
        _injector.BeforeRead(Name);
        return _visible.Read(offset, destination);
    }

    public void Write(long offset, ReadOnlySpan<byte> source)
    {
        var completes = _injector.BeforeWrite(Name);
        lock (_sync)
        {
            _pending.Add(new PendingOperation(offset, source.ToArray()));
            if (completes)
            {
                _visible.Write(offset, source);
            }
        }

        if (!completes)
        {
            throw FaultInjector.PowerLoss(Name);
        }
    }

    public void Write(long offset, IReadOnlyList<ReadOnlyMemory<byte>> sources)
    {
        var total = 0;
        for (var i = 0; i < sources.Count; i++)
        {
            total += sources[i].Length;
        }

        var joined = new byte[total];
        var position = 0;
        for (var i = 0; i < sources.Count; i++)
        {
            sources[i].Span.CopyTo(joined.AsSpan(position));
            position += sources[i].Length;
        }

        Write(offset, joined);
    }

    public void Flush()
    {
        if (!_injector.BeforeFlush(Name))
        {
            throw FaultInjector.PowerLoss(Name);
        }

        lock (_sync)
        {
            foreach (var operation in _pending)
            {
                if (operation.Data is null)
                {
                    _durable.SetLength(operation.Offset);
                }
                else
                {
                    _durable.Write(operation.Offset, operation.Data);
                }
            }

            _pending.Clear();
        }
    }

    public void SetLength(long length)
    {
        var completes = _injector.BeforeResize(Name);
        lock (_sync)
        {
            _pending.Add(new PendingOperation(length, null));
            if (completes)
            {
                _visible.SetLength(length);
            }
        }

        if (!completes)
        {
            throw FaultInjector.PowerLoss(Name);
        }
    }

    public void Dispose()
    {
    }

    private static void ApplyTorn(MemoryDevice survivor, PendingOperation operation, Random random)
    {
        var data = operation.Data!;
        var start = 0;
        while (start < data.Length)
        {
            // Sector boundaries are those of the device, not of the write.
            var sectorEnd = (int)Math.Min(data.Length, ((operation.Offset + start) / SectorSize + 1) * SectorSize - operation.Offset);
            if (random.Next(2) == 0)
            {
                survivor.Write(operation.Offset + start, data.AsSpan(start, sectorEnd - start));
            }

            start = sectorEnd;
        }
    }

    private sealed record PendingOperation(long Offset, byte[]? Data);
}
