namespace BLite.Core.Tests.Storage.Faults;

/// <summary>
/// The shared switchboard for a set of <see cref="FaultInjectingDevice"/>s (typically a database
/// file and its WAL): counts their I/O, fails a chosen read, write or flush, and simulates a power
/// loss that hits every device at the same instant.
/// </summary>
public sealed class FaultInjector
{
    private readonly Lock _sync = new();

    /// <summary>Fail the Nth read (1-based, counted over all attached devices) with an <see cref="IOException"/>; 0 = never.</summary>
    public int FailReadAt { get; set; }

    /// <summary>Fail the Nth write without applying it; 0 = never.</summary>
    public int FailWriteAt { get; set; }

    /// <summary>Fail the Nth flush without making anything durable; 0 = never.</summary>
    public int FailFlushAt { get; set; }

    /// <summary>Injected write and flush failures report a full disk (ENOSPC) rather than a generic I/O error.</summary>
    public bool FailAsDiskFull { get; set; }

    /// <summary>
    /// Cut the power during the Nth mutating operation (write, flush or resize; 1-based): that
    /// operation does not complete, it and every later operation throws, and unflushed writes are
    /// left to <see cref="FaultInjectingDevice.SurvivingContent"/>. 0 = never.
    /// </summary>
    public long PowerLossAtOperation { get; set; }

    /// <summary>Runs at the start of every flush, outside the injector's lock (tests use it to hold a flush open).</summary>
    public Action<string>? OnFlush { get; set; }

    /// <summary>Runs at the start of every write, before it applies and outside the injector's lock (tests use it to hold a write open).</summary>
    public Action<string>? OnWrite { get; set; }

    public int Reads { get; private set; }

    public int Writes { get; private set; }

    public int Flushes { get; private set; }

    public long MutatingOperations { get; private set; }

    public bool IsPoweredOff { get; private set; }

    /// <summary>Cuts the power now: every attached device refuses all further I/O.</summary>
    public void CutPower()
    {
        lock (_sync)
        {
            IsPoweredOff = true;
        }
    }

    internal void BeforeRead(string device)
    {
        lock (_sync)
        {
            ThrowIfPoweredOff(device);
            Reads++;
            if (Reads == FailReadAt)
            {
                throw new IOException($"Injected read failure #{Reads} on '{device}'.");
            }
        }
    }

    /// <summary>Returns false when the operation is the one that loses power (the caller records it as pending, then throws).</summary>
    internal bool BeforeWrite(string device)
    {
        OnWrite?.Invoke(device);
        lock (_sync)
        {
            ThrowIfPoweredOff(device);
            Writes++;
            if (Writes == FailWriteAt)
            {
                throw InjectedFailure("write", Writes, device);
            }

            return !CountMutation();
        }
    }

    internal bool BeforeFlush(string device)
    {
        OnFlush?.Invoke(device);
        lock (_sync)
        {
            ThrowIfPoweredOff(device);
            Flushes++;
            if (Flushes == FailFlushAt)
            {
                throw InjectedFailure("flush", Flushes, device);
            }

            return !CountMutation();
        }
    }

    internal bool BeforeResize(string device)
    {
        lock (_sync)
        {
            ThrowIfPoweredOff(device);
            return !CountMutation();
        }
    }

    internal static IOException PowerLoss(string device) => new($"Simulated power loss while writing '{device}'.");

    // 28 is ENOSPC on Linux and macOS, the errno .NET reports as the IOException's HResult there.
    private IOException InjectedFailure(string operation, int number, string device) =>
        FailAsDiskFull
            ? new IOException($"No space left on device : '{device}' (injected {operation} failure #{number})", 28)
            : new IOException($"Injected {operation} failure #{number} on '{device}'.");

    private bool CountMutation()
    {
        MutatingOperations++;
        if (MutatingOperations == PowerLossAtOperation)
        {
            IsPoweredOff = true;
            return true;
        }

        return false;
    }

    private void ThrowIfPoweredOff(string device)
    {
        if (IsPoweredOff)
        {
            throw PowerLoss(device);
        }
    }
}
