using System.Linq.Expressions;
using System.Text;

namespace BLite;

/// <summary>
/// Reads the member paths out of a <c>HasIndex</c> lambda. Only the expression tree's shape and
/// member names are used; names become stored field paths through the generated mapper.
/// </summary>
internal static class IndexKeyPaths
{
    public static IReadOnlyList<string> MemberPaths(LambdaExpression keySelector)
    {
        var parameter = keySelector.Parameters[0];
        var body = StripConversions(keySelector.Body);
        if (body is NewExpression composite)
        {
            if (composite.Arguments.Count == 0)
            {
                throw Unsupported(keySelector);
            }

            var paths = new string[composite.Arguments.Count];
            for (var i = 0; i < paths.Length; i++)
            {
                paths[i] = MemberPath(composite.Arguments[i], parameter) ?? throw Unsupported(keySelector);
            }

            return paths;
        }

        return [MemberPath(body, parameter) ?? throw Unsupported(keySelector)];
    }

    private static string? MemberPath(Expression expression, ParameterExpression root)
    {
        expression = StripConversions(expression);
        switch (expression)
        {
            case MemberExpression member when member.Expression is not null:
                if (StripConversions(member.Expression) == root)
                {
                    return member.Member.Name;
                }

                var parent = MemberPath(member.Expression, root);
                return parent is null ? null : parent + "." + member.Member.Name;

            // items.Select(i => i.Member): the path continues into every item.
            case MethodCallExpression { Method.Name: "Select", Arguments.Count: 2 } select
                when select.Method.DeclaringType == typeof(Enumerable)
                && StripQuote(select.Arguments[1]) is LambdaExpression { Parameters.Count: 1 } itemSelector:
                var items = MemberPath(select.Arguments[0], root);
                var inner = MemberPath(itemSelector.Body, itemSelector.Parameters[0]);
                return items is null || inner is null ? null : items + "." + inner;

            default:
                return null;
        }
    }

    private static Expression StripConversions(Expression expression)
    {
        while (expression is UnaryExpression { NodeType: ExpressionType.Convert or ExpressionType.ConvertChecked or ExpressionType.TypeAs } unary)
        {
            expression = unary.Operand;
        }

        return expression;
    }

    private static Expression StripQuote(Expression expression) =>
        expression is UnaryExpression { NodeType: ExpressionType.Quote } quote ? quote.Operand : expression;

    private static NotSupportedException Unsupported(LambdaExpression keySelector) =>
        new($"HasIndex({keySelector}) is not an index key: use a member chain (o => o.A.B), an anonymous object of member chains (o => new {{ o.A, o.B }}) or a chain through a collection (o => o.Items.Select(i => i.C)).");

    /// <summary>The default index name for stored field paths.</summary>
    public static string DefaultIndexName(IReadOnlyList<string> fieldPaths)
    {
        var name = new StringBuilder("ix");
        foreach (var path in fieldPaths)
        {
            name.Append('_').Append(path);
        }

        return name.ToString();
    }
}
