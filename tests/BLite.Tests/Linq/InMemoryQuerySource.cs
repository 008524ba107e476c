using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using BLite.Bson;
using BLite.Core.Query;
using BLite.Linq;

namespace BLite.Tests.Linq;

/// <summary>
/// An <see cref="IDocumentQuerySource{T}"/> over documents serialized to C-BSON in memory: plans
/// with <see cref="QueryPlanner"/> (for Explain), evaluates the filter on raw bytes, sorts and
/// pages with <see cref="DocumentPipeline"/>, and deserializes only what is returned — the same
/// work the collections layer does, minus the pages.
/// </summary>
internal sealed class InMemoryQuerySource : IDocumentQuerySource<Order>, IProjectingQuerySource
{
    private readonly List<ReadOnlyMemory<byte>> _documents;
    private readonly BsonFieldDictionary _dictionary = new();

    /// <summary>Each stored document deserialized once (a round trip through C-BSON), found again by its bytes.</summary>
    private readonly Dictionary<byte[], Order> _materialized = new(ReferenceEqualityComparer.Instance);

    public InMemoryQuerySource(IEnumerable<Order> orders)
    {
        _documents = [];
        foreach (var order in orders)
        {
            var bytes = OrderMapper.ToDocument(order).ToBytes(_dictionary);
            _documents.Add(bytes);
            _materialized.Add(bytes, OrderMapper.FromDocument(BsonDocument.FromBytes(bytes, _dictionary)));
        }
    }

    public IFieldPathResolver FieldPaths { get; } = new TestFieldPaths();

    public List<DocumentQuery> Executed { get; } = [];

    /// <summary>The field lists of pushed-down projections, in execution order.</summary>
    public List<IReadOnlyList<ValueExpression>> Projected { get; } = [];

    /// <summary>How many documents were handed out as objects.</summary>
    public int Materialized => _materializedCount;

    private int _materializedCount;

    public IReadOnlyList<IndexDescriptor> Indexes { get; init; } = [IndexDescriptor.PrimaryKey];

    public IEnumerable<Order> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        lock (Executed)
        {
            Executed.Add(query);
        }

        return Run(query, parameters).Select(Materialize);
    }

    public async IAsyncEnumerable<Order> ExecuteAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        foreach (var order in Execute(query, parameters))
        {
            cancellationToken.ThrowIfCancellationRequested();
            await Task.Yield();
            yield return order;
        }
    }

    public long Count(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        lock (Executed)
        {
            Executed.Add(query);
        }

        return Run(query, parameters).LongCount();
    }

    public ValueTask<long> CountAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, CancellationToken cancellationToken) =>
        ValueTask.FromResult(Count(query, parameters));

    public IEnumerable<BsonValue[]> ExecuteFields(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values)
    {
        lock (Executed)
        {
            Executed.Add(query);
            Projected.Add(values);
        }

        var projection = new FieldProjection(values, _dictionary, parameters);
        return Run(query, parameters).Select(document =>
        {
            var row = new BsonValue[values.Count];
            projection.Read(document.Span, row);
            return row;
        });
    }

    public async IAsyncEnumerable<BsonValue[]> ExecuteFieldsAsync(DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<ValueExpression> values,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        foreach (var row in ExecuteFields(query, parameters, values))
        {
            cancellationToken.ThrowIfCancellationRequested();
            await Task.Yield();
            yield return row;
        }
    }

    public string Explain(DocumentQuery query) => QueryPlanner.Plan(query, Indexes).Explain();

    private Order Materialize(ReadOnlyMemory<byte> document)
    {
        Interlocked.Increment(ref _materializedCount);
        return MemoryMarshal.TryGetArray(document, out var segment) ? _materialized[segment.Array!] : throw new InvalidOperationException("Unknown document.");
    }

    private IEnumerable<ReadOnlyMemory<byte>> Run(DocumentQuery query, IReadOnlyList<BsonValue> parameters) =>
        DocumentPipeline.Run(_documents, FilterEvaluator.Create(query.Filter, _dictionary, parameters), query.Sort, _dictionary,
            query.ResolveSkip(parameters), query.ResolveTake(parameters));
}
