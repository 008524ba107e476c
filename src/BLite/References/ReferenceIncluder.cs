using System.Collections;
using System.Linq.Expressions;
using BLite.Linq.Execution;

namespace BLite;

/// <summary>A query source whose documents belong to a context, so their references can be resolved there.</summary>
internal interface IReferenceResolvingSource
{
    DocumentDbContext Context { get; }

    /// <summary>The query's documents read from <paramref name="snapshot"/> (the view its Include also reads).</summary>
    IEnumerable<object?> ExecuteIn(QuerySnapshot snapshot, Core.Query.DocumentQuery query, IReadOnlyList<BsonValue> parameters);

    /// <summary>The query's projected fields read from <paramref name="snapshot"/>.</summary>
    IEnumerable<BsonValue[]> ExecuteFieldsIn(QuerySnapshot snapshot, Core.Query.DocumentQuery query, IReadOnlyList<BsonValue> parameters, IReadOnlyList<Core.Query.ValueExpression> values);
}

/// <summary>
/// Runs Include over a stream of documents: up to <see cref="BatchSize"/> documents are taken, the
/// references the lambda reaches are grouped by type and resolved one batch per type
/// (<see cref="ReferenceLoader"/>), then the documents are yielded in their order. Every batch reads
/// the query's own <see cref="QuerySnapshot"/>, so referenced documents are as of the query's view.
/// </summary>
internal static class ReferenceIncluder
{
    /// <summary>Large enough that a page of results is one batch, small enough to keep streaming.</summary>
    public const int BatchSize = 1024;

    public static IEnumerable<object?> Include(IEnumerable<object?> rows, LambdaExpression reference, object?[] values, MissingReference missing, QuerySnapshot snapshot)
    {
        var batch = new List<object?>(BatchSize);
        foreach (var row in rows)
        {
            batch.Add(row);
            if (batch.Count == BatchSize)
            {
                Resolve(batch, reference, values, missing, snapshot);
                foreach (var document in batch)
                {
                    yield return document;
                }

                batch.Clear();
            }
        }

        Resolve(batch, reference, values, missing, snapshot);
        foreach (var document in batch)
        {
            yield return document;
        }
    }

    private static void Resolve(List<object?> batch, LambdaExpression reference, object?[] values, MissingReference missing, QuerySnapshot snapshot)
    {
        var loaders = new Dictionary<Type, ReferenceLoader>();
        foreach (var row in batch)
        {
            switch (ExpressionInterpreter.Invoke(reference, row, values))
            {
                case IDocumentReference single:
                    Add(loaders, single);
                    break;
                case IEnumerable many:
                    foreach (var item in many)
                    {
                        if (item is IDocumentReference element)
                        {
                            Add(loaders, element);
                        }
                    }

                    break;
            }
        }

        foreach (var loader in loaders.Values)
        {
            loader.Load(snapshot, missing);
        }
    }

    private static void Add(Dictionary<Type, ReferenceLoader> loaders, IDocumentReference reference)
    {
        if (!loaders.TryGetValue(reference.TargetType, out var loader))
        {
            loaders.Add(reference.TargetType, loader = reference.CreateLoader());
        }

        loader.Add(reference);
    }
}
