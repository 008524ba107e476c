using System.Reflection;
using System.Runtime.CompilerServices;
using BenchmarkDotNet.Attributes;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq;

namespace BLite.Benchmarks.Query;

/// <summary>
/// What the LINQ translation cache saves on a repeated query: parameterize + cache hit + the
/// source's per-instance plan, against a fresh provider (empty cache) that must translate the
/// expression tree and plan it again. Both end in <c>Explain()</c>, so no document is read.
/// </summary>
[MemoryDiagnoser]
public class PlanCacheBenchmarks
{
    private IQueryable<QueryOrder> _cachedRoot = null!;
    private PlanningSource _source = null!;
    private decimal _minimum = 100m;

    [GlobalSetup]
    public void Setup()
    {
        _source = new PlanningSource();
        _cachedRoot = BLiteQuery.Create(_source);
    }

    [Benchmark(Baseline = true, Description = "translate + plan (no cache)")]
    public string Uncached()
    {
        _minimum += 1m;
        var minimum = _minimum;
        return BLiteQuery.Create(_source).Where(o => o.Status == "shipped" && o.Total > minimum).OrderByDescending(o => o.PlacedAt).Take(10).Explain();
    }

    [Benchmark(Description = "cache hit + cached plan")]
    public string Cached()
    {
        _minimum += 1m;
        var minimum = _minimum;
        return _cachedRoot.Where(o => o.Status == "shipped" && o.Total > minimum).OrderByDescending(o => o.PlacedAt).Take(10).Explain();
    }

    public sealed class QueryOrder
    {
        public int Id { get; set; }

        public string Status { get; set; } = "";

        public decimal Total { get; set; }

        public DateTime PlacedAt { get; set; }
    }

    /// <summary>Plans once per <see cref="DocumentQuery"/> instance, as a real source does; never reads documents.</summary>
    private sealed class PlanningSource : IDocumentQuerySource<QueryOrder>, IFieldPathResolver
    {
        private static readonly IndexDescriptor[] Indexes =
        [
            IndexDescriptor.PrimaryKey,
            new("idx_status", [FieldPath.Parse("status")]),
            new("idx_status_placedAt", [FieldPath.Parse("status"), FieldPath.Parse("placedAt")]),
            new("idx_total", [FieldPath.Parse("total")]),
        ];

        private readonly ConditionalWeakTable<DocumentQuery, QueryPlan> _plans = new();

        public IFieldPathResolver FieldPaths => this;

        public bool TryGetFieldName(Type declaringType, MemberInfo member, out string fieldName)
        {
            fieldName = member.Name == "Id" ? "_id" : char.ToLowerInvariant(member.Name[0]) + member.Name[1..];
            return true;
        }

        public string Explain(DocumentQuery query) => _plans.GetValue(query, q => QueryPlanner.Plan(q, Indexes)).Explain();

        public IEnumerable<QueryOrder> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters) => [];

        public IAsyncEnumerable<QueryOrder> ExecuteAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken) =>
            AsyncEnumerable.Empty<QueryOrder>();

        public long Count(DocumentQuery query, IReadOnlyList<BsonValue> parameters) => 0;

        public ValueTask<long> CountAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken) => ValueTask.FromResult(0L);
    }
}
