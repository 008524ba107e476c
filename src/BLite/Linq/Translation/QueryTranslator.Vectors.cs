using System.Linq.Expressions;

namespace BLite.Linq.Translation;

/// <summary>Where a NearestTo call's values come from in each execution (lifted parameter slots or constants).</summary>
internal sealed record VectorStage(string FieldPath, ValueSlot Vector, ValueSlot K, ValueSlot Ef)
{
    public VectorRequest Resolve(object?[] values)
    {
        var vector = Vector.Resolve(values) as float[] ?? throw new ArgumentException("NearestTo needs a query vector.");
        var ef = Ef.Resolve(values) is { } value ? Convert.ToInt32(value, System.Globalization.CultureInfo.InvariantCulture) : (int?)null;
        return new VectorRequest(FieldPath, vector, Convert.ToInt32(K.Resolve(values), System.Globalization.CultureInfo.InvariantCulture), ef);
    }
}

/// <summary>A value of one execution: a lifted parameter (by index) or a constant of the shape.</summary>
internal sealed record ValueSlot(int ParameterIndex, object? Constant)
{
    public object? Resolve(object?[] values) => ParameterIndex < 0 ? Constant : values[ParameterIndex];
}

internal sealed partial class QueryTranslator
{
    private VectorStage? _vector;
    private bool _withDistance;

    private bool TryVisitVectorOperator(MethodCallExpression call)
    {
        if (call.Method.DeclaringType != typeof(VectorQueryableExtensions))
        {
            return false;
        }

        if (call.Method.Name == nameof(VectorQueryableExtensions.WithDistance))
        {
            if (_vector is null || _stage != Stage.Limited || _withDistance || _limits.Count > 0)
            {
                throw Unsupported(call, "WithDistance must directly follow NearestTo");
            }

            _withDistance = true;
            _elementType = call.Method.ReturnType.GetGenericArguments()[0];
            return true;
        }

        RequireStage(call, "NearestTo", Stage.Source);
        if (_vector is not null || _sort.Count > 0)
        {
            throw Unsupported(call, "NearestTo orders by distance; it cannot be combined with OrderBy or another NearestTo");
        }

        var lambda = Lambda(call, 1);
        if (!TryPath(lambda.Body, lambda.Parameters[0], out var path) || path.IsSelf)
        {
            throw Unsupported(call, "the vector must be a stored member of the document");
        }

        _vector = new VectorStage(path.ToString(), Slot(call.Arguments[2]), Slot(call.Arguments[3]), Slot(call.Arguments[4]));
        _stage = Stage.Limited;
        return true;
    }

    private static ValueSlot Slot(Expression argument) => argument switch
    {
        QueryParameterExpression parameter => new ValueSlot(parameter.Index, null),
        ConstantExpression constant => new ValueSlot(-1, constant.Value),
        _ => throw Unsupported(argument, "NearestTo's vector, k and ef must not depend on the document"),
    };

    private void RequireNoSortWithVector(Expression expression)
    {
        if (_vector is not null && _sort.Count > 0)
        {
            throw Unsupported(expression, "NearestTo orders by distance; it cannot be combined with OrderBy");
        }
    }
}
