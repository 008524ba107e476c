using System.Globalization;
using BLite.Core.CrashWorker;
using BLite.Core.Storage;

namespace BLite.Core.Tests.Storage;

/// <summary>
/// Simulated power loss: the fault-injecting devices cut power at a random I/O operation, then
/// every unflushed write is independently kept, dropped or torn at sector granularity. Reopening
/// must recover every commit acknowledged under Full, and under Normal lose at most a suffix of
/// commits, and always open to a consistent database.
/// </summary>
public class PowerLossTests
{
    private const int CiCases = 1000;

    private const uint CounterKey = 7;

    /// <summary>Encrypted databases (docs/encryption.md) run a quarter as many cases: the cipher sits below the same engine.</summary>
    private const int EncryptedCiCases = 250;

    public static TheoryData<Durability, bool> Modes => new()
    {
        { Durability.Full, false },
        { Durability.Normal, false },
        { Durability.Full, true },
        { Durability.Normal, true },
    };

    [Theory]
    [MemberData(nameof(Modes))]
    public void Power_loss_at_random_points_never_loses_acknowledged_commits_or_corrupts(Durability durability, bool encrypted)
    {
        // BLITE_POWER_LOSS_CASES: plain cases per mode for an on-demand long run; encrypted modes run a quarter.
        var plainCases = int.TryParse(Environment.GetEnvironmentVariable("BLITE_POWER_LOSS_CASES"), NumberStyles.Integer, CultureInfo.InvariantCulture, out var configured) ? configured : CiCases / 2;
        var cases = encrypted ? plainCases * EncryptedCiCases / CiCases : plainCases;
        for (var i = 0; i < cases; i++)
        {
            var seed = (durability == Durability.Full ? 1_000_000 : 2_000_000) + (encrypted ? 500_000 : 0) + i;
            try
            {
                RunCase(seed, durability, encrypted);
            }
            catch (Exception exception)
            {
                throw new InvalidOperationException($"Power-loss case with seed {seed} ({durability}, {(encrypted ? "encrypted" : "plain")}) failed: {exception.Message}", exception);
            }
        }
    }

    private static void RunCase(int seed, Durability durability, bool encrypted)
    {
        var random = new Random(seed);
        var options = new StorageOptions
        {
            Durability = durability,
            PageSize = 4096,
            WalCheckpointThresholdBytes = 4096 * random.Next(3, 40),
            CacheBudgetBytes = random.Next(2) == 0 ? 0 : 1 << 20,
            Encryption = encrypted ? BLiteEncryption.WithKey(Encryption.EncryptionTestKeys.Key) : null,
        };
        var disk = new FaultDatabase();
        disk.Injector.PowerLossAtOperation = random.Next(1, 120);

        long acknowledged = -1;
        long attempted = -1;
        // Every other case also keeps a counter, whose persister commits a ledger transaction of
        // its own before every checkpoint (a background one's before its finish, flushed without
        // the writer slot: docs/storage.md, "Background checkpoint"), so cuts land in it too.
        var persistsCounters = seed % 2 == 1;
        var persisterRandom = new Random(seed ^ 0x5EED);
        StorageEngine? engine = null;
        try
        {
            engine = disk.Open(options);
            if (persistsCounters)
            {
                engine.SetCounterPersister(tx => attempted = Math.Max(attempted, CommitLedger.WriteNext(tx, persisterRandom)));
            }

            using (var init = engine.BeginWrite())
            {
                CommitLedger.Initialize(init, dataPages: 5);
                attempted = 0;
                init.Commit();
            }

            if (durability == Durability.Full)
            {
                acknowledged = 0;
            }

            for (var t = random.Next(1, 60); t > 0; t--)
            {
                using var tx = engine.BeginWrite();
                var n = CommitLedger.WriteNext(tx, random);
                attempted = n;
                if (persistsCounters)
                {
                    tx.SetCounter(CounterKey, n);
                }

                tx.Commit();
                if (durability == Durability.Full)
                {
                    // Not attempted: the persister may have raised it meanwhile, with a transaction not yet flushed.
                    acknowledged = n;
                }
            }

            if (random.Next(4) == 0)
            {
                engine.Dispose();
                acknowledged = attempted;
            }
        }
        catch (Exception exception) when (disk.Injector.IsPoweredOff && exception is BLiteException or IOException)
        {
            // The power cut surfaced as a failed open, commit or close: that operation was not acknowledged.
        }

        var survivor = disk.AfterPowerLoss(random);
        if (engine is not null)
        {
            // Closed, or the registry of open engines keeps every cut engine alive: a long
            // on-demand run of tens of thousands of cases once grew past 20 GB.
            engine.BackgroundCheckpointTask.Wait();
            engine.CloseWithoutCheckpoint();
        }

        using var reopened = survivor.Open(options);
        long recovered;
        using (var read = reopened.BeginRead())
        {
            var ledger = CommitLedger.Load(read);
            recovered = ledger.Data.Count == 0 ? -1 : CommitLedger.Check(read);
        }

        Assert.True(recovered >= acknowledged, $"acknowledged commit {acknowledged} was lost (recovered {recovered})");
        Assert.True(recovered <= attempted, $"recovered {recovered} but only {attempted} was attempted");
        Assert.True(reopened.Verify(requireEveryPageOwned: true, new LedgerOwnership()).IsValid, reopened.Verify(true, new LedgerOwnership()).ToString());

        // The recovered database keeps working.
        using (var tx = reopened.BeginWrite())
        {
            CommitLedger.Initialize(tx, dataPages: 5);
            CommitLedger.WriteNext(tx, random);
            tx.Commit();
        }

        using (var read = reopened.BeginRead())
        {
            Assert.Equal(recovered + 1, CommitLedger.Check(read) - (recovered < 0 ? 1 : 0));
        }
    }
}
