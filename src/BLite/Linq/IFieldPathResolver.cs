using System.Reflection;

namespace BLite.Linq;

/// <summary>
/// Maps the members a LINQ expression touches to stored field names, following the mapping
/// conventions (C# member name, <c>[BsonField("x")]</c> renames, the id member → <c>_id</c>).
/// Generated mappers (through the DbContext) implement it; the translator joins the names of a
/// member chain with dots, so <c>o.Customer.Email</c> becomes <c>customer.email</c> if the
/// resolver says so for each member.
/// </summary>
public interface IFieldPathResolver
{
    /// <summary>
    /// The stored name of <paramref name="member"/> when read from an instance of
    /// <paramref name="declaringType"/> (the static type of the expression the member is read
    /// from). False when the member is not stored (ignored, computed) — the translator then
    /// reports the expression as untranslatable.
    /// </summary>
    bool TryGetFieldName(Type declaringType, MemberInfo member, out string fieldName);
}
