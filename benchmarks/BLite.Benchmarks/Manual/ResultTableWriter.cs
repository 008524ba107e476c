using System.Globalization;
using BLite.Benchmarks.Engines;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// The manual run as a markdown table: one row per scenario, durability and engine, with BLite's
/// speed-up over each peer (peer median / BLite median) when a BLite row exists beside it.
/// </summary>
public static class ResultTableWriter
{
    public const string BLiteEngine = "BLite";

    /// <summary>BLite itself or BLite on another store (<c>BLite+PostgreSQL</c>): the row its peers are compared with.</summary>
    public static bool IsBLite(string engine) => engine == BLiteEngine || engine.StartsWith(BLiteEngine + "+", StringComparison.Ordinal);

    public static void Write(TextWriter output, MachineInfo machine, int documents, IReadOnlyList<ManualResult> results)
    {
        output.WriteLine($"Machine: {machine.Description}; runtime: {machine.Runtime}; dataset: {documents.ToString("N0", CultureInfo.InvariantCulture)} documents.");
        output.WriteLine();
        output.WriteLine("| Scenario | Durability | Engine | Median per op | Allocated per op | BLite speed-up |");
        output.WriteLine("|---|---|---|---:|---:|---:|");
        foreach (var result in results)
        {
            var speedUp = "–";
            if (!IsBLite(result.Engine) && FindBLite(results, result) is { } blite && blite.MedianNsPerOp > 0)
            {
                speedUp = (result.MedianNsPerOp / blite.MedianNsPerOp).ToString("0.0", CultureInfo.InvariantCulture) + "×";
            }

            output.WriteLine($"| {result.Scenario} | {result.Durability} | {result.Engine} | {FormatTime(result.MedianNsPerOp)} | {FormatBytes(result.AllocatedBytesPerOp)} | {speedUp} |");
        }

        output.WriteLine();
        output.WriteLine("LiteDB runs as shipped (no durability setting): on a file it syncs every commit, so its buffered write rows pay a sync. It keeps DateTime to the millisecond; the agreement check compares it at that precision.");
        if (results.Count > 0 && !results.Any(r => IsBLite(r.Engine)))
        {
            output.WriteLine("BLite: not part of this run (--engine), so no speed-up is computed.");
        }
    }

    public static string FormatTime(double nanoseconds) => nanoseconds switch
    {
        >= 1_000_000 => (nanoseconds / 1_000_000).ToString("N2", CultureInfo.InvariantCulture) + " ms",
        >= 1_000 => (nanoseconds / 1_000).ToString("N2", CultureInfo.InvariantCulture) + " µs",
        _ => nanoseconds.ToString("N0", CultureInfo.InvariantCulture) + " ns",
    };

    public static string FormatBytes(double bytes) => bytes switch
    {
        >= 1024 * 1024 => (bytes / (1024 * 1024)).ToString("N2", CultureInfo.InvariantCulture) + " MB",
        >= 1024 => (bytes / 1024).ToString("N1", CultureInfo.InvariantCulture) + " KB",
        _ => bytes.ToString("N0", CultureInfo.InvariantCulture) + " B",
    };

    private static ManualResult? FindBLite(IReadOnlyList<ManualResult> results, ManualResult peer)
    {
        foreach (var candidate in results)
        {
            if (IsBLite(candidate.Engine) && candidate.Scenario == peer.Scenario && candidate.Durability == peer.Durability)
            {
                return candidate;
            }
        }

        return null;
    }
}
