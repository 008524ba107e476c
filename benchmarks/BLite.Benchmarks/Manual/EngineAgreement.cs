using System.Text.Json;
using BLite.Benchmarks.Comparison;
using BLite.Benchmarks.Engines;
using BLite.Benchmarks.Workload;

namespace BLite.Benchmarks.Manual;

/// <summary>
/// What a freshly loaded store answers, reduced to comparable text: its count, the ids its Status
/// scan returns, and the full contents (as JSON) of orders found by id. Every engine must give the
/// first engine's answers before any of its figures is recorded: a fast adapter that returns the
/// wrong documents would publish a meaningless ratio.
/// </summary>
internal sealed class EngineAgreement
{
    private const int CheckedLookups = 16;

    private readonly Dictionary<string, (string Engine, string Answers)> _reference = [];
    private readonly Dictionary<string, string> _referenceInMilliseconds = [];

    /// <summary>Throws when <paramref name="store"/> disagrees with the first store checked under the same <paramref name="check"/> name.</summary>
    public void Check(string check, IOrderStore store, ComparisonDataset data)
    {
        var millisecondsOnly = DatePrecision.KeepsMillisecondsOnly(store.Engine);
        var answers = Describe(store, data, millisecondsOnly);
        if (!_reference.TryGetValue(check, out var reference))
        {
            _reference[check] = (store.Engine, answers);
            _referenceInMilliseconds[check] = millisecondsOnly ? answers : Describe(store, data, millisecondsOnly: true);
            return;
        }

        if (millisecondsOnly)
        {
            // Compared at the precision this engine keeps: the reference's answers rounded the same way.
            reference = (reference.Engine, _referenceInMilliseconds[check]);
        }

        if (reference.Answers != answers)
        {
            throw new InvalidOperationException(
                $"{store.Engine} and {reference.Engine} disagree on '{check}':{Environment.NewLine}" +
                $"{reference.Engine}: {Excerpt(reference.Answers, answers)}{Environment.NewLine}" +
                $"{store.Engine}: {Excerpt(answers, reference.Answers)}");
        }
    }

    private static string Describe(IOrderStore store, ComparisonDataset data, bool millisecondsOnly)
    {
        var found = new List<CustomerOrder>();
        var scanned = store.FindByStatus(ComparisonDataset.ScannedStatus, found);
        var scannedIds = new List<string>(found.Count);
        foreach (var order in found)
        {
            if (order.Status != ComparisonDataset.ScannedStatus)
            {
                throw new InvalidOperationException($"{store.Engine}'s Status scan returned an order with Status '{order.Status}'.");
            }

            scannedIds.Add(OrderKeys.ToText(order.Id));
        }

        // Engines return scan results in their own order (BLite by id, SQLite by rowid or index).
        scannedIds.Sort(StringComparer.Ordinal);
        var text = new System.Text.StringBuilder();
        text.Append("count=").Append(store.Count).Append("; scanned=").Append(scanned)
            .Append("; ids=").AppendJoin(',', scannedIds).Append("; found=");
        for (var i = 0; i < CheckedLookups && i < data.LookupKeys.Length; i++)
        {
            var order = store.FindById(data.LookupKeys[i]);
            if (order is not null && millisecondsOnly)
            {
                DatePrecision.TruncateToMilliseconds(order);
            }

            text.Append(order is null ? "null" : JsonSerializer.Serialize(order, OrderJsonContext.Default.CustomerOrder)).Append('|');
        }

        return text.ToString();
    }

    // The first place two answers differ, with some context, so a mismatch can be read.
    private static string Excerpt(string text, string other)
    {
        var at = 0;
        while (at < text.Length && at < other.Length && text[at] == other[at])
        {
            at++;
        }

        var start = Math.Max(0, at - 80);
        return $"...{text.Substring(start, Math.Min(240, text.Length - start))}...";
    }
}
