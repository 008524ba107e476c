using System.Runtime.CompilerServices;
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
internal sealed class InMemoryQuerySource : IDocumentQuerySource<Order>
{
    private readonly List<ReadOnlyMemory<byte>> _documents;
    private readonly BsonFieldDictionary _dictionary = new();

    public InMemoryQuerySource(IEnumerable<Order> orders)
    {
        _documents = orders.Select(o => (ReadOnlyMemory<byte>)OrderMapper.ToDocument(o).ToBytes(_dictionary)).ToList();
    }

    public IFieldPathResolver FieldPaths { get; } = new TestFieldPaths();

    public List<DocumentQuery> Executed { get; } = [];

    public IReadOnlyList<IndexDescriptor> Indexes { get; init; } = [IndexDescriptor.PrimaryKey];

    public IEnumerable<Order> Execute(DocumentQuery query, IReadOnlyList<BsonValue> parameters)
    {
        lock (Executed)
        {
            Executed.Add(query);
        }

        return Run(query, parameters).Select(bytes => OrderMapper.FromDocument(BsonDocument.FromBytes(bytes.Span, _dictionary)));
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

    public string Explain(DocumentQuery query) => QueryPlanner.Plan(query, Indexes).Explain();

    private IEnumerable<ReadOnlyMemory<byte>> Run(DocumentQuery query, IReadOnlyList<BsonValue> parameters) =>
        DocumentPipeline.Run(_documents, FilterEvaluator.Create(query.Filter, _dictionary, parameters), query.Sort, _dictionary,
            query.ResolveSkip(parameters), query.ResolveTake(parameters));
}
