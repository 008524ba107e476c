using System.Collections;
using System.Linq.Expressions;
using BLite.Linq.Execution;

namespace BLite;

/// <summary>A query source whose documents belong to a context, so their references can be resolved there.</summary>
internal interface IReferenceResolvingSource
{
    DocumentDbContext Context { get; }
}

/// <summary>
/// Runs Include over a stream of documents: up to <see cref="BatchSize"/> documents are taken, the
/// references the lambda reaches are grouped by type and resolved one batch per type
/// (<see cref="ReferenceLoader"/>), then the documents are yielded in their order.
/// </summary>
internal static class ReferenceIncluder
{
    /// <summary>Large enough that a page of results is one batch, small enough to keep streaming.</summary>
    public const int BatchSize = 1024;

    public static IEnumerable<object?> Include(IEnumerable<object?> rows, LambdaExpression reference, object?[] values, MissingReference missing, DocumentDbContext context)
    {
        var batch = new List<object?>(BatchSize);
        foreach (var row in rows)
        {
            batch.Add(row);
            if (batch.Count == BatchSize)
            {
                Resolve(batch, reference, values, missing, context);
                foreach (var document in batch)
                {
                    yield return document;
                }

                batch.Clear();
            }
        }

        Resolve(batch, reference, values, missing, context);
        foreach (var document in batch)
        {
            yield return document;
        }
    }

    private static void Resolve(List<object?> batch, LambdaExpression reference, object?[] values, MissingReference missing, DocumentDbContext context)
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
            loader.Load(context, missing);
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
