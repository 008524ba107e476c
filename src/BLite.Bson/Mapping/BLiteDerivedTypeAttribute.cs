namespace BLite.Bson.Mapping;

/// <summary>
/// Declares, on a base type, a derived type that a member or collection of the base type may hold.
/// Instances of the derived type are stored with a <c>_t</c> field holding
/// <see cref="Discriminator"/>, which selects the type again when reading.
/// </summary>
[AttributeUsage(AttributeTargets.Class, AllowMultiple = true, Inherited = false)]
public sealed class BLiteDerivedTypeAttribute : Attribute
{
    public BLiteDerivedTypeAttribute(Type derivedType, string discriminator)
    {
        DerivedType = derivedType;
        Discriminator = discriminator;
    }

    public Type DerivedType { get; }

    public string Discriminator { get; }
}
